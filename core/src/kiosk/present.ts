import { Effect, Option } from "effect";
import { Users } from "../accounts/model.ts";
import { physicianName } from "../accounts/access.ts";
import type { KioskDevice } from "./model.ts";
import { type KioskRevocation, reasonShown } from "./revocation.ts";

/** A device as the portal's device list shows it; its status is derived from its dates. */
export const presentDevice = (device: KioskDevice, at: Date) => ({
  identifier: device.id,
  name: device.name,
  physician_identifier: device.physicianId,
  status: device.revokedAt ? "revoked" : device.pairedAt ? "paired" : device.pairingExpiresAt && device.pairingExpiresAt > at ? "pairing" : "expired",
  created_at: device.createdAt.toISOString(),
  paired_at: device.pairedAt?.toISOString() ?? null,
  last_seen_at: device.lastSeenAt?.toISOString() ?? null,
  revoked_at: device.revokedAt?.toISOString() ?? null,
  /** Why, for a revoked device ("not_given" when no reason was); null while it is not revoked. */
  revocation_reason: device.revokedAt ? reasonShown(device.revocationReason) : null,
});
export type PresentedDevice = ReturnType<typeof presentDevice>;

/** What the revoked tablet itself is told (its 403's `data`): when and why, not who. */
export const revocationOf = (device: KioskDevice & { readonly revokedAt: Date }): KioskRevocation => ({
  revoked_at: device.revokedAt.toISOString(),
  reason: reasonShown(device.revocationReason),
});

/** The practice a device works for, by its physician's name. */
export const practiceOf = (device: KioskDevice) =>
  Effect.map(Effect.flatMap(Users, (u) => u.findById(device.physicianId)), (p) => (Option.isSome(p) ? physicianName(p.value) : ""));

export const deviceInfo = (device: KioskDevice) =>
  Effect.map(practiceOf(device), (practice) => ({ identifier: device.id, name: device.name, practice }));
