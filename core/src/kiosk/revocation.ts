/**
 * Why a kiosk tablet was revoked (issue 46, item 12; ADR 0170): one fixed list, chosen by whoever revokes
 * it, stored with the device, shown in the portal's and the admin console's device lists and told to the
 * tablet itself. Plain (no Effect): the portal and the kiosk read it too.
 */

/** The reasons a person revoking a tablet may give; the words for each are the apps' catalogues'. */
export const REVOCATION_REASONS = ["lost_or_stolen", "replaced", "no_longer_used", "security_concern"] as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[number];

/** No reason on record: a client that sent none, or a revocation from before the list existed. */
export const REASON_NOT_GIVEN = "not_given";
/** A revoked device's reason as the API answers it. */
export type RevocationReasonShown = RevocationReason | typeof REASON_NOT_GIVEN;
/** Every reason an app must have words for. */
export const REVOCATION_REASONS_SHOWN: ReadonlyArray<RevocationReasonShown> = [...REVOCATION_REASONS, REASON_NOT_GIVEN];

export const isRevocationReason = (value: unknown): value is RevocationReason => (REVOCATION_REASONS as ReadonlyArray<unknown>).includes(value);

export const reasonShown = (reason: RevocationReason | null): RevocationReasonShown => reason ?? REASON_NOT_GIVEN;

/**
 * What a revoked tablet is told with its 403 DeviceRevoked (the error's `data`): when, and why. Never who
 * revoked it (a staff member's name on an unattended tablet) nor anything about a patient.
 */
// A type, not an interface: it is a 403's `data`, a record of plain values.
export type KioskRevocation = {
  readonly revoked_at: string;
  readonly reason: RevocationReasonShown;
};

/** The revocation in a 403's `data`, read as hostile: null unless it names a time; an unknown reason is "not given". */
export const readRevocation = (data: unknown): KioskRevocation | null => {
  if (data === null || typeof data !== "object") return null;
  const { revoked_at: at, reason } = data as Record<string, unknown>;
  if (typeof at !== "string" || Number.isNaN(new Date(at).getTime())) return null;
  return { revoked_at: at, reason: isRevocationReason(reason) ? reason : REASON_NOT_GIVEN };
};
