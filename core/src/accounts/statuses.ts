/**
 * The account statuses and user types, and the predicates the apps route by, as a plain module (no
 * xstate): the portal's sign-in page reads them without the account machine (lifecycle.ts re-exports
 * them; the sign-in page's budget, ADR 74).
 */

/** The statuses of the account lifecycle of api-contract.md (the machine is lifecycle.ts). */
export const USER_STATUSES = ["EmailVerificationRequired", "AdditionalInformationRequired", "WaitingApproval", "Active", "Blocked"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const SIGN_UP_TYPES = ["parent", "physician", "other"] as const;
export type SignUpType = (typeof SIGN_UP_TYPES)[number];
export const USER_TYPES = ["parent", "physician", "physician_staff", "other", "reviewer", "admin"] as const;
export type UserType = (typeof USER_TYPES)[number];

// Each status other code needs by name, named here so no other file spells one (ADR 41, ADR 68).
/** A new account (sign-up, invitation): the machine's initial status. */
export const INITIAL_ACCOUNT_STATUS: UserStatus = "EmailVerificationRequired";
/** The working status: the account may use Crown. */
export const ACTIVE_STATUS = "Active" satisfies UserStatus;
/** Blocked by an admin: nothing works for the account until it is unblocked. */
export const BLOCKED_STATUS = "Blocked" satisfies UserStatus;
/** An administrator must look at the account before it goes on (a 403 names this status). */
export const WAITING_APPROVAL_STATUS = "WaitingApproval" satisfies UserStatus;

export type HasStatus = { readonly status: UserStatus };
export const isActive = (user: HasStatus) => user.status === ACTIVE_STATUS;
export const isBlocked = (user: HasStatus) => user.status === BLOCKED_STATUS;
export const awaitsApproval = (user: HasStatus) => user.status === WAITING_APPROVAL_STATUS;
/** The e-mail address is not verified yet (a new account, or an unblocked one that never verified). */
export const awaitsEmailVerification = (user: HasStatus) => user.status === INITIAL_ACCOUNT_STATUS;
/** A parent who has verified the e-mail but not registered a first baby yet. */
export const awaitsFirstBaby = (user: HasStatus) => user.status === "AdditionalInformationRequired";
