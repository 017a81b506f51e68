import { Effect, Option, Schema } from "effect";
import { composeIn, greeting, mailText } from "../i18n/mails/index.ts";
import { Conflict, Forbidden, RateLimited, ValidationFailed } from "../shared/errors.ts";
import { audit, now, Random, RateLimiter, Secrets, transaction } from "../shared/ports.ts";
import { Required, validate } from "../shared/validation.ts";
import { CurrentUser, Sessions, type User, Users } from "./model.ts";
import { recordProof, requireRecentProof } from "./recent-proof.ts";
import { SECOND_FACTOR_MESSAGES } from "./second-factor-messages.ts";
import {
  AuthenticatorCodes,
  RECOVERY_CODE_COUNT,
  SecondFactors,
  secondFactorRequired,
  SecretBox,
} from "./second-factor-model.ts";
import { send } from "./tokens.ts";

/**
 * Two-step sign-in, the account's side (issue 44, ADR 146): setting up an authenticator app, the
 * recovery codes, turning it off, and what the profile shows. Every change needs a fresh proof
 * (recent-proof.ts); enabling a first factor proves this session's second step at once.
 */

export const ISSUER = "Crown";

/** Crockford's base-32 digits: no i, l, o or u, so a code read off paper is typed right. */
const CODE_DIGITS = "0123456789abcdefghjkmnpqrstvwxyz";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** A recovery code: 12 base-32 digits (60 bits) in groups of four, e.g. `7k2m-9qx4-h3dp`. */
export const newRecoveryCode = (randomBase64url: string): string => {
  // 64 base64url symbols over 32 digits: each digit equally likely.
  const digits = [...randomBase64url.slice(0, 12)].map((ch) => CODE_DIGITS[BASE64URL.indexOf(ch) % 32]).join("");
  return `${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8, 12)}`;
};

/** What a typed recovery code means: case, spaces and dashes ignored, look-alikes read as Crockford does. */
export const normaliseRecoveryCode = (typed: string) =>
  typed.toLowerCase().replace(/[\s-]/g, "").replace(/[il]/g, "1").replace(/o/g, "0");

/** Recovery codes look like this; anything else given as a code is read as an authenticator's. */
export const looksLikeRecoveryCode = (typed: string) => /^[0-9a-z]{12}$/.test(normaliseRecoveryCode(typed));

/** Keyed digests (HMAC with the server secret): a stolen table of them is no list of codes. */
const recoveryDigest = (sign: (payload: string) => string, userId: string, code: string) => sign(`recovery-code:${userId}:${normaliseRecoveryCode(code)}`);

/** Ten new recovery codes replace the old; answers the codes, shown to the user this once. */
export const issueRecoveryCodes = (userId: string) =>
  Effect.gen(function* () {
    const random = yield* Random;
    const secrets = yield* Secrets;
    const at = yield* now;
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => newRecoveryCode(random.secret(12)));
    yield* (yield* SecondFactors).replaceRecoveryCodes(userId, codes.map((c) => recoveryDigest(secrets.sign, userId, c)), at);
    return codes;
  });

/** Spends a recovery code of the user's: true once for each code. */
export const spendRecoveryCode = (userId: string, typed: string) =>
  Effect.gen(function* () {
    const secrets = yield* Secrets;
    return yield* (yield* SecondFactors).spendRecoveryCode(userId, recoveryDigest(secrets.sign, userId, typed), yield* now);
  });

const secretContext = (userId: string) => `totp:${userId}`;

/** Is this a current code of the user's app, never used before? Records its time step when it is. */
export const acceptAppCode = (userId: string, code: string) =>
  Effect.gen(function* () {
    const factors = yield* SecondFactors;
    const found = yield* factors.findTotp(userId);
    if (Option.isNone(found) || found.value.sealedSecret === null) return false;
    const secret = (yield* SecretBox).open(found.value.sealedSecret, secretContext(userId));
    if (Option.isNone(secret)) return false;
    const step = yield* (yield* AuthenticatorCodes).check(secret.value, code, yield* now);
    if (Option.isNone(step)) return false;
    return yield* factors.useTotpStep(userId, step.value);
  });

/** Enrolment codes: five wrong ones in 15 minutes, then wait (a session must not be a code oracle). */
const CODE_LIMIT = { limit: 5, windowSeconds: 15 * 60 } as const;
const countCodeAttempt = (userId: string) =>
  Effect.gen(function* () {
    const verdict = yield* (yield* RateLimiter).hit(`second-factor-setup:${userId}`, CODE_LIMIT.limit, CODE_LIMIT.windowSeconds, yield* now);
    if (!verdict.allowed) return yield* new RateLimited({ message: SECOND_FACTOR_MESSAGES.tooManyAttempts, retryAfterSeconds: verdict.retryAfterSeconds });
  });

const mailFor = (user: User, kind: "enabled" | "disabled", method?: "app" | "passkey") => {
  const t = mailText(user.language, "twoStep");
  const paragraphs =
    kind === "enabled"
      ? [t("enabled", { method: t(method === "passkey" ? "methodPasskey" : "methodApp") }), t("notYouChange")]
      : [t("disabled"), t("notYouChange")];
  return composeIn(user.language, { to: user.email, subject: t(kind === "enabled" ? "enabledSubject" : "disabledSubject"), greeting: greeting(user.language, user.firstName), paragraphs });
};

/**
 * A first factor was just added (an app or a passkey): the account has two-step sign-in from now on,
 * this session has proved it, and ten recovery codes are made. Answers the codes (shown once).
 */
export const firstFactorAdded = (user: User, sessionId: string, method: "app" | "passkey") =>
  Effect.gen(function* () {
    const at = yield* now;
    yield* (yield* Users).update(user.id, { secondFactorAt: at });
    yield* (yield* Sessions).recordProof(sessionId, at, { secondFactor: true });
    const codes = yield* issueRecoveryCodes(user.id);
    yield* audit({ action: "account.second_factor_enabled", actorId: user.id, subjectId: user.id, details: { method } });
    return codes;
  });

/** What the profile shows of the caller's two-step sign-in. */
export const secondFactorStatus = Effect.gen(function* () {
  const { user, session } = yield* CurrentUser;
  const factors = yield* SecondFactors;
  const app = yield* factors.findTotp(user.id);
  const passkeys = yield* factors.passkeysOf(user.id);
  return {
    enabled: user.secondFactorAt !== null,
    required: secondFactorRequired(user.type),
    proved_in_this_session: session.secondFactorAt !== null,
    authenticator_app: Option.isSome(app) && app.value.confirmedAt !== null,
    recovery_codes_left: user.secondFactorAt === null ? 0 : yield* factors.unusedRecoveryCodes(user.id),
    passkeys: passkeys.map((p) => ({
      identifier: p.id,
      name: p.name,
      synced: p.deviceType === "multiDevice",
      created_at: p.createdAt.toISOString(),
      last_used_at: p.lastUsedAt?.toISOString() ?? null,
    })),
  };
});

/** `POST /user/second-factor/app`: a new secret for an authenticator app, and the address its QR code carries. */
export const startAuthenticatorApp = Effect.gen(function* () {
  const { user } = yield* requireRecentProof;
  const codes = yield* AuthenticatorCodes;
  const secret = codes.newSecret();
  yield* (yield* SecondFactors).startTotp(user.id, (yield* SecretBox).seal(secret, secretContext(user.id)), yield* now);
  return { message: SECOND_FACTOR_MESSAGES.appStarted, secret, otpauth_url: codes.address(secret, user.email) };
});

export const CodeRequest = Schema.Struct({ code: Required("Code") });

/**
 * `POST /user/second-factor/app/confirm` with the app's current code: the app becomes the account's.
 * The first factor of an account answers its ten recovery codes (shown once); a replaced app none.
 */
export const confirmAuthenticatorApp = (input: unknown) =>
  Effect.gen(function* () {
    const { code } = yield* validate(CodeRequest, input);
    const { user, session } = yield* requireRecentProof;
    const factors = yield* SecondFactors;
    const found = yield* factors.findTotp(user.id);
    if (Option.isNone(found) || found.value.pendingSecret === null) return yield* new Conflict({ message: SECOND_FACTOR_MESSAGES.noAppPending });
    yield* countCodeAttempt(user.id);
    const secret = (yield* SecretBox).open(found.value.pendingSecret, secretContext(user.id));
    const step = Option.isSome(secret) ? yield* (yield* AuthenticatorCodes).check(secret.value, code, yield* now) : Option.none();
    if (Option.isNone(step)) return yield* ValidationFailed.field("code", SECOND_FACTOR_MESSAGES.wrongCode);
    const at = yield* now;
    const recoveryCodes = yield* transaction(
      Effect.gen(function* () {
        yield* factors.confirmTotp(user.id, at, step.value);
        if (user.secondFactorAt === null) return yield* firstFactorAdded(user, session.id, "app");
        yield* audit({ action: "account.second_factor_app_replaced", actorId: user.id, subjectId: user.id });
        return null;
      }),
    );
    yield* send(mailFor(user, "enabled", "app"));
    return { message: SECOND_FACTOR_MESSAGES.appEnabled, recovery_codes: recoveryCodes };
  });

/** `POST /user/second-factor/recovery-codes`: ten new codes, the old ones void. */
export const regenerateRecoveryCodes = Effect.gen(function* () {
  const { user } = yield* requireRecentProof;
  if (user.secondFactorAt === null) return yield* new Conflict({ message: SECOND_FACTOR_MESSAGES.noFactor });
  const codes = yield* transaction(
    Effect.gen(function* () {
      const made = yield* issueRecoveryCodes(user.id);
      yield* audit({ action: "account.recovery_codes_regenerated", actorId: user.id, subjectId: user.id });
      return made;
    }),
  );
  return { message: SECOND_FACTOR_MESSAGES.recoveryCodesMade, recovery_codes: codes };
});

/** No factor left: the account is back to the password alone (only where that is allowed). */
const lastFactorGone = (user: User) =>
  Effect.gen(function* () {
    yield* (yield* SecondFactors).removeAll(user.id);
    yield* (yield* Users).update(user.id, { secondFactorAt: null });
  });

/** Would removing this leave an account that must have two-step sign-in without any? */
const refuseIfLast = (user: User, remaining: number) =>
  remaining === 0 && secondFactorRequired(user.type) ? new Forbidden({ message: SECOND_FACTOR_MESSAGES.stillRequired }) : null;

/** `DELETE /user/second-factor/app`: the app goes; without a passkey left, two-step sign-in is off. */
export const removeAuthenticatorApp = Effect.gen(function* () {
  const { user } = yield* requireRecentProof;
  const factors = yield* SecondFactors;
  const passkeys = yield* factors.passkeysOf(user.id);
  const refusal = refuseIfLast(user, passkeys.length);
  if (refusal) return yield* refusal;
  yield* transaction(
    Effect.gen(function* () {
      yield* factors.removeTotp(user.id);
      if (passkeys.length === 0) yield* lastFactorGone(user);
      yield* audit({ action: "account.second_factor_app_removed", actorId: user.id, subjectId: user.id });
    }),
  );
  if (passkeys.length === 0) yield* send(mailFor(user, "disabled"));
  return { message: passkeys.length === 0 ? SECOND_FACTOR_MESSAGES.turnedOff : SECOND_FACTOR_MESSAGES.passkeyRemoved };
});

/** `DELETE /user/second-factor`: turns two-step sign-in off (a parent's choice; staff must keep it). */
export const turnOffSecondFactor = Effect.gen(function* () {
  const { user } = yield* requireRecentProof;
  const refusal = refuseIfLast(user, 0);
  if (refusal) return yield* refusal;
  if (user.secondFactorAt === null) return { message: SECOND_FACTOR_MESSAGES.turnedOff };
  yield* transaction(
    Effect.gen(function* () {
      yield* lastFactorGone(user);
      yield* audit({ action: "account.second_factor_disabled", actorId: user.id, subjectId: user.id });
    }),
  );
  yield* send(mailFor(user, "disabled"));
  return { message: SECOND_FACTOR_MESSAGES.turnedOff };
});

export { lastFactorGone, mailFor as secondFactorMail, refuseIfLast, recordProof };
