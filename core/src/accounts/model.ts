import { Context, Effect, Option } from "effect";
import type { OutgoingMail } from "../shared/ports.ts";
import type { RateRule } from "../shared/throttle.ts";
import { type UserStatus, type UserType, INITIAL_ACCOUNT_STATUS } from "./lifecycle.ts";
import { DEFAULT_LANGUAGE, type Language } from "../shared/i18n.ts";

/** An account as the domain sees it. `id` is the opaque identifier used on the wire. */
export interface User {
  readonly id: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly type: UserType;
  readonly status: UserStatus;
  readonly firstName: string;
  readonly lastName: string;
  readonly phone: string | null;
  readonly faxNumber: string | null;
  readonly emailVerifiedAt: Date | null;
  readonly passwordChangedAt: Date;
  readonly photoKey: string | null;
  readonly photoType: string | null;
  readonly disclaimerAcceptedAt: Date | null;
  readonly baaSignedAt: Date | null;
  readonly quizPassedAt: Date | null;
  /** A physician's NPI number (10 digits), given at sign-up. */
  readonly npi: string | null;
  /** When an admin verified the physician's practice; null while it is being verified (ADR 25). */
  readonly practiceVerifiedAt: Date | null;
  /** The language of the account's e-mails and reports (ADR 77): the sign-up's, then the user's choice. */
  readonly language: Language;
  /** Since when the account has a second factor (an authenticator app or a passkey); null: none (issue 44). */
  readonly secondFactorAt: Date | null;
  readonly createdAt: Date;
}

/** E-mail addresses are stored and compared trimmed and lower-case. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** A new account as sign-up (and an invitation) creates it: unverified, nothing of onboarding done. */
export const newUser = (fields: {
  id: string;
  email: string;
  passwordHash: string;
  type: UserType;
  firstName: string;
  lastName: string;
  phone: string | null;
  at: Date;
  language?: Language;
}): User => ({
  id: fields.id,
  email: normaliseEmail(fields.email),
  passwordHash: fields.passwordHash,
  type: fields.type,
  status: INITIAL_ACCOUNT_STATUS,
  firstName: fields.firstName,
  lastName: fields.lastName,
  phone: fields.phone,
  faxNumber: null,
  emailVerifiedAt: null,
  passwordChangedAt: fields.at,
  photoKey: null,
  photoType: null,
  disclaimerAcceptedAt: null,
  baaSignedAt: null,
  quizPassedAt: null,
  npi: null,
  practiceVerifiedAt: null,
  language: fields.language ?? DEFAULT_LANGUAGE,
  secondFactorAt: null,
  createdAt: fields.at,
});

export type UserPatch = Partial<Omit<User, "id" | "createdAt">>;

export interface UsersPort {
  readonly insert: (user: User) => Effect.Effect<void>;
  readonly findById: (id: string) => Effect.Effect<Option.Option<User>>;
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<User>>;
  readonly update: (id: string, patch: UserPatch) => Effect.Effect<void>;
  /** One page of the accounts in `status`, oldest first; `total` exact up to a threshold, estimated beyond (ADR 0072). */
  readonly listByStatus: (status: UserStatus, page: { readonly page: number; readonly perPage: number }) => Effect.Effect<{ readonly data: ReadonlyArray<User>; readonly total: number }>;
  /**
   * The admin's directory, newest first: by type and status, `search` (3+ characters) in the name and
   * e-mail. One page read through an index; `total` exact up to a threshold, estimated beyond (ADR 0072).
   */
  readonly directory: (query: DirectoryFilter, page: { readonly page: number; readonly perPage: number }) => Effect.Effect<{ readonly data: ReadonlyArray<User>; readonly total: number }>;
  /**
   * Active physicians whose practice is being verified (ADR 25), longest waiting first: one page
   * and the count, both read from the pending practices alone (a partial index), never every user.
   */
  readonly listAwaitingPracticeVerification: (offset: number, limit: number) => Effect.Effect<{ readonly data: ReadonlyArray<User>; readonly total: number }>;
}
export interface DirectoryFilter {
  readonly search: string | null;
  readonly type: UserType | null;
  readonly status: UserStatus | null;
}
/** What the directory searches: first name, last name and e-mail, in this order (the trigram index is on the same text). */
export const directoryText = (u: Pick<User, "firstName" | "lastName" | "email">) => `${u.firstName} ${u.lastName} ${u.email}`;
export class Users extends Context.Tag("crown/Users")<Users, UsersPort>() {}

export interface Session {
  readonly id: string;
  readonly userId: string;
  readonly tokenDigest: string;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  readonly expiresAt: Date;
  /** Null for sessions that only have an absolute limit (parents). */
  readonly idleTimeoutSeconds: number | null;
  readonly revokedAt: Date | null;
  readonly deviceType: string;
  /** The latest proof of identity in this session: sign-in, or the password or a passkey given again (recent-proof.ts). */
  readonly lastProofAt: Date;
  /** When this session's second factor was proved (at sign-in, or by enrolling one in it); null: not proved. */
  readonly secondFactorAt: Date | null;
}

export interface SessionsPort {
  readonly insert: (session: Session) => Effect.Effect<void>;
  readonly findByDigest: (digest: string) => Effect.Effect<Option.Option<Session>>;
  /** The session and its account in one read: every authenticated request starts with it (ADR 0090). */
  readonly findWithUser: (digest: string) => Effect.Effect<Option.Option<{ readonly session: Session; readonly user: User }>>;
  readonly touch: (id: string, at: Date) => Effect.Effect<void>;
  readonly revoke: (id: string, at: Date) => Effect.Effect<void>;
  /** The session's identity proved again at `at` (the password or a passkey); with `secondFactor`, its second factor too. */
  readonly recordProof: (id: string, at: Date, options?: { readonly secondFactor?: boolean }) => Effect.Effect<void>;
  /** Revokes every live session of a user except `exceptId`. */
  readonly revokeAllForUser: (userId: string, at: Date, exceptId?: string) => Effect.Effect<void>;
}
export class Sessions extends Context.Tag("crown/Sessions")<Sessions, SessionsPort>() {}

export type TokenPurpose = "email_verification" | "password_reset" | "invitation" | "stream_ticket";

export interface OneTimeToken {
  readonly id: string;
  readonly userId: string;
  readonly purpose: TokenPurpose;
  readonly digest: string;
  readonly expiresAt: Date;
  readonly consumedAt: Date | null;
  readonly createdAt: Date;
}

export interface OneTimeTokensPort {
  readonly insert: (token: OneTimeToken) => Effect.Effect<void>;
  /**
   * Marks the token used and returns it, in one atomic step; None when it is unknown, of another
   * purpose, already used or expired. A token therefore works once, even under concurrent calls.
   */
  readonly consume: (purpose: TokenPurpose, digest: string, at: Date) => Effect.Effect<Option.Option<OneTimeToken>>;
  /** Retires every unused token of this purpose for the user (a new link replaces older ones). */
  readonly retireAll: (userId: string, purpose: TokenPurpose, at: Date) => Effect.Effect<void>;
}
export class OneTimeTokens extends Context.Tag("crown/OneTimeTokens")<OneTimeTokens, OneTimeTokensPort>() {}

/** Rate limits of the authentication calls: per account and per address, shared across processes. */
export const LIMITS = {
  // Failed sign-ins: growing delays, in sign-in-throttle.ts. Changing the password needs a session already.
  changePasswordPerAccount: { limit: 5, windowSeconds: 15 * 60 },
  // 60, not 30, since issue 44: a sign-in with its second step is two calls (the password, then with the code).
  signInPerAddress: { limit: 60, windowSeconds: 15 * 60 },
  signUpPerAddress: { limit: 10, windowSeconds: 60 * 60 },
  // Repeated sign-ups for one e-mail from many addresses (probing whether it is taken, mail flooding).
  signUpPerAccount: { limit: 5, windowSeconds: 60 * 60 },
  mailPerAccount: { limit: 3, windowSeconds: 60 * 60 },
  mailPerAddress: { limit: 10, windowSeconds: 60 * 60 },
} as const;
export type AccountLimits = { readonly [K in keyof typeof LIMITS]: RateRule };

/** Accounts settings, from the environment (api-contract.md defaults). */
export interface AccountsSettings {
  readonly publicUrl: string;
  readonly verificationTtlSeconds: number;
  readonly resetTtlSeconds: number;
  readonly invitationTtlSeconds: number;
  /** Physicians, staff and internal users. */
  readonly staffIdleSeconds: number;
  readonly staffAbsoluteSeconds: number;
  /** Parents: absolute only; longer with remember_me. */
  readonly parentAbsoluteSeconds: number;
  readonly parentRememberSeconds: number;
  /** 0: passwords never expire. */
  readonly passwordMaxAgeDays: number;
  readonly limits: AccountLimits;
}
export const defaultAccountsSettings = (publicUrl: string): AccountsSettings => ({
  publicUrl,
  verificationTtlSeconds: 24 * 3600,
  resetTtlSeconds: 60 * 60,
  invitationTtlSeconds: 7 * 24 * 3600,
  staffIdleSeconds: 30 * 60,
  staffAbsoluteSeconds: 12 * 3600,
  parentAbsoluteSeconds: 12 * 3600,
  parentRememberSeconds: 30 * 24 * 3600,
  passwordMaxAgeDays: 365,
  limits: LIMITS,
});
/** The server's address when PUBLIC_URL is not set (api-contract.md: port 8080). */
export const DEFAULT_PUBLIC_URL = "http://localhost:8080";

/**
 * The accounts settings as a service; `AccountsConfig.Default` is the defaults above, and the
 * server provides `AccountsConfig.make(...)` from its environment.
 */
export class AccountsConfig extends Effect.Service<AccountsConfig>()("crown/AccountsConfig", {
  succeed: defaultAccountsSettings(DEFAULT_PUBLIC_URL),
}) {}

/**
 * Other features' reactions to account events, run inside the transaction of the event (so a
 * notification is written with its cause, or not at all). Optional: without it nothing reacts.
 */
export interface AccountHooksPort {
  /**
   * An invited user (staff member or caregiver) set a password from the invitation link; the e-mail
   * is verified. Answers the mails to send once the transaction has committed.
   */
  readonly invitationAccepted: (user: User) => Effect.Effect<ReadonlyArray<OutgoingMail>>;
}
export class AccountHooks extends Context.Tag("crown/AccountHooks")<AccountHooks, AccountHooksPort>() {}

/** The signed-in caller, provided by the driving adapter after `authenticate`. */
export interface Caller {
  readonly user: User;
  readonly session: Session;
}
export class CurrentUser extends Context.Tag("crown/CurrentUser")<CurrentUser, Caller>() {}
