import { Context, Effect, Option } from "effect";
import type { Caller } from "./model.ts";

/**
 * Two-step sign-in (issue 44, ADR 146): an authenticator app's codes (TOTP, RFC 6238) with ten
 * one-time recovery codes, and passkeys (WebAuthn). The entities, the ports the adapters implement,
 * and who must have a second factor.
 */

import { secondFactorRequired } from "./second-factor-policy.ts";

export { secondFactorRequired };

/** The 403 `status` of a call refused until the session's second factor is set up. */
export const SECOND_FACTOR_SETUP_STATUS = "SecondFactorSetupRequired";
/** The 403 `status` of a sign-in whose password was right and which needs the second step now. */
export const SECOND_FACTOR_STEP_STATUS = "SecondFactorRequired";

/** A session that must set up its second factor before anything but onboarding and the profile. */
export const awaitsSecondFactorSetup = (caller: Caller): boolean =>
  secondFactorRequired(caller.user.type) && caller.session.secondFactorAt === null;

export const RECOVERY_CODE_COUNT = 10;
/** How long an enrolment or passkey ceremony may take before its challenge lapses. */
export const CEREMONY_SECONDS = 5 * 60;

/**
 * An authenticator app's secret, sealed at rest. A new app waits as `pendingSecret` until a first code
 * from it matches, so replacing a phone never leaves the account without its working app.
 */
export interface TotpFactor {
  readonly userId: string;
  readonly sealedSecret: string | null;
  readonly confirmedAt: Date | null;
  /** The latest time step a code was accepted for: a code is never accepted twice. */
  readonly lastStep: number | null;
  readonly pendingSecret: string | null;
  readonly pendingAt: Date | null;
}

export interface Passkey {
  readonly id: string;
  readonly userId: string;
  /** The authenticator's credential id, base64url. */
  readonly credentialId: string;
  readonly publicKey: Uint8Array;
  readonly counter: number;
  readonly transports: ReadonlyArray<string>;
  /** "singleDevice" or "multiDevice" (synced), as the authenticator said. */
  readonly deviceType: string;
  readonly backedUp: boolean;
  readonly name: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

export type CeremonyPurpose = "passkey_registration" | "passkey_sign_in" | "passkey_proof";

export interface Ceremony {
  readonly digest: string;
  readonly purpose: CeremonyPurpose;
  readonly userId: string | null;
  readonly expiresAt: Date;
}

export interface SecondFactorsPort {
  readonly findTotp: (userId: string) => Effect.Effect<Option.Option<TotpFactor>>;
  /** Keeps a new app's sealed secret until its first code (the working app, if any, stays). */
  readonly startTotp: (userId: string, sealedPending: string, at: Date) => Effect.Effect<void>;
  /** The pending app becomes the account's app; `step` is its first code's. */
  readonly confirmTotp: (userId: string, at: Date, step: number) => Effect.Effect<void>;
  /** Records an accepted code's step, atomically: false when this step (or a later one) was already used. */
  readonly useTotpStep: (userId: string, step: number) => Effect.Effect<boolean>;
  readonly removeTotp: (userId: string) => Effect.Effect<void>;

  /** Replaces every recovery code of the user with these digests. */
  readonly replaceRecoveryCodes: (userId: string, digests: ReadonlyArray<string>, at: Date) => Effect.Effect<void>;
  /** Spends one unused code by its digest, atomically: false when unknown or already spent. */
  readonly spendRecoveryCode: (userId: string, digest: string, at: Date) => Effect.Effect<boolean>;
  readonly unusedRecoveryCodes: (userId: string) => Effect.Effect<number>;

  readonly passkeysOf: (userId: string) => Effect.Effect<ReadonlyArray<Passkey>>;
  readonly findPasskey: (credentialId: string) => Effect.Effect<Option.Option<Passkey>>;
  readonly insertPasskey: (passkey: Passkey) => Effect.Effect<void>;
  readonly passkeyUsed: (id: string, counter: number, at: Date) => Effect.Effect<void>;
  readonly removePasskey: (userId: string, id: string) => Effect.Effect<boolean>;

  /** Forgets every factor of the user: the app, the recovery codes and the passkeys. */
  readonly removeAll: (userId: string) => Effect.Effect<void>;

  readonly insertCeremony: (ceremony: Ceremony) => Effect.Effect<void>;
  /** Uses a ceremony's challenge once: None when unknown, of another purpose, used or lapsed. */
  readonly consumeCeremony: (digest: string, purpose: CeremonyPurpose, at: Date) => Effect.Effect<Option.Option<Ceremony>>;
}
export class SecondFactors extends Context.Tag("crown/SecondFactors")<SecondFactors, SecondFactorsPort>() {}

/** Seals small secrets at rest with a key derived from the server secret (AES-GCM; `context` binds the owner). */
export interface SecretBoxPort {
  readonly seal: (plain: string, context: string) => string;
  /** None when the sealed text was altered, belongs to another context, or another key sealed it. */
  readonly open: (sealed: string, context: string) => Option.Option<string>;
}
export class SecretBox extends Context.Tag("crown/SecretBox")<SecretBox, SecretBoxPort>() {}

/** Time-based one-time passwords (RFC 6238: SHA-1, 6 digits, 30 seconds). */
export interface AuthenticatorCodesPort {
  readonly newSecret: () => string;
  /** The otpauth:// address an authenticator app reads from the QR code. */
  readonly address: (secret: string, account: string) => string;
  /** The time step the code belongs to (this one or the one before or after), or None. */
  readonly check: (secret: string, code: string, at: Date) => Effect.Effect<Option.Option<number>>;
}
export class AuthenticatorCodes extends Context.Tag("crown/AuthenticatorCodes")<AuthenticatorCodes, AuthenticatorCodesPort>() {}

/** The relying party's side of WebAuthn; options and responses are the browser's JSON, passed through. */
export interface WebAuthnPort {
  readonly registrationOptions: (input: {
    readonly userId: string;
    readonly userName: string;
    readonly displayName: string;
    readonly challenge: string;
    readonly exclude: ReadonlyArray<Pick<Passkey, "credentialId" | "transports">>;
  }) => Effect.Effect<unknown>;
  readonly verifyRegistration: (
    response: unknown,
    challenge: string,
  ) => Effect.Effect<Option.Option<Pick<Passkey, "credentialId" | "publicKey" | "counter" | "transports" | "deviceType" | "backedUp">>>;
  readonly authenticationOptions: (input: {
    readonly challenge: string;
    readonly allow: ReadonlyArray<Pick<Passkey, "credentialId" | "transports">>;
  }) => Effect.Effect<unknown>;
  /** The credential id a response names (to find its passkey), without checking anything. */
  readonly credentialIdOf: (response: unknown) => Option.Option<string>;
  /** The challenge the browser signed, read from the response's client data, without checking anything. */
  readonly challengeOf: (response: unknown) => Option.Option<string>;
  /** The new signature counter when the assertion is valid for this passkey and challenge. */
  readonly verifyAuthentication: (response: unknown, challenge: string, passkey: Passkey) => Effect.Effect<Option.Option<{ readonly counter: number }>>;
}
export class WebAuthn extends Context.Tag("crown/WebAuthn")<WebAuthn, WebAuthnPort>() {}
