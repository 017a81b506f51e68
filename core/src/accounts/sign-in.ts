import { Effect, Option } from "effect";
import { Forbidden, ValidationFailed } from "../shared/errors.ts";
import { audit, now, PasswordHasher, Random, type RateLimiter, Secrets, transaction } from "../shared/ports.ts";
import { clientAddress, throttle } from "../shared/throttle.ts";
import { validate } from "../shared/validation.ts";
import { AccountsConfig, normaliseEmail, type Session, Sessions, type User, Users } from "./model.ts";
import { sessionLifetime } from "./policy.ts";
import { MESSAGES } from "./messages.ts";
import { SignInRequest } from "./schemas.ts";
import { awaitSignInTurn, clearSignInFailures, passwordSubject, recordSignInFailure, secondStepSubject } from "./sign-in-throttle.ts";
import { passkeySignInUser } from "./passkeys.ts";
import { SECOND_FACTOR_MESSAGES } from "./second-factor-messages.ts";
import { SECOND_FACTOR_STEP_STATUS } from "./second-factor-model.ts";
import { acceptAppCode, looksLikeRecoveryCode, spendRecoveryCode } from "./second-factor.ts";
import { awaitsEmailVerification, isBlocked } from "./lifecycle.ts";
import { recordDevice } from "./devices.ts";
import { cancelErasureOnSignIn } from "./removal.ts";

/** Opens a session and returns its token; only the token's digest is stored. */
export const openSession = (user: User, options: { rememberMe: boolean; deviceType: string; secondFactor?: boolean }) =>
  Effect.gen(function* () {
    const config = yield* AccountsConfig;
    const random = yield* Random;
    const secrets = yield* Secrets;
    const at = yield* now;
    const token = random.secret(32);
    const lifetime = sessionLifetime(user.type, options.rememberMe, config);
    const session: Session = {
      id: random.identifier(),
      userId: user.id,
      tokenDigest: secrets.digest(token),
      createdAt: at,
      lastSeenAt: at,
      expiresAt: new Date(at.getTime() + lifetime.absoluteSeconds * 1000),
      idleTimeoutSeconds: lifetime.idleSeconds,
      revokedAt: null,
      deviceType: options.deviceType,
      // Signing in is a proof of identity; the second factor counts only when it was asked for (or given).
      lastProofAt: at,
      secondFactorAt: options.secondFactor === true ? at : null,
    };
    yield* (yield* Sessions).insert(session);
    yield* recordDevice(session.id);
    // Signing in again within the grace period cancels a requested erasure (issue 44).
    yield* cancelErasureOnSignIn(user);
    return { token, session };
  });

/** Why an account with the right password may not sign in now, or null. */
const refusalOf = (user: User, at: Date, passwordMaxAgeDays: number): Forbidden | null => {
  if (awaitsEmailVerification(user)) return new Forbidden({ message: MESSAGES.emailNotVerified, status: user.status });
  if (isBlocked(user)) return new Forbidden({ message: MESSAGES.blocked, status: user.status });
  if (passwordMaxAgeDays > 0 && at.getTime() - user.passwordChangedAt.getTime() > passwordMaxAgeDays * 86_400_000) {
    return new Forbidden({ message: MESSAGES.passwordExpired, status: "PasswordExpired" });
  }
  return null;
};

/** Is the code given at sign-in one of the account's: its app's current code, or an unspent recovery code (spent now)? */
const secondStepPasses = (user: User, code: string) =>
  looksLikeRecoveryCode(code) ? spendRecoveryCode(user.id, code) : acceptAppCode(user.id, code.replace(/\s/g, ""));

/** Opens the session of an account whose sign-in passed every step, in one transaction with its audit. */
const admit = (user: User, request: { remember_me?: boolean | undefined; device_type?: string | undefined }, method: string, secondFactor: boolean, clear: Effect.Effect<void, never, RateLimiter>) =>
  transaction(
    Effect.gen(function* () {
      yield* clear;
      const opened = yield* openSession(user, { rememberMe: request.remember_me === true, deviceType: request.device_type ?? "web", secondFactor });
      yield* audit({ action: "account.sign_in", actorId: user.id, subjectId: user.id, details: { device_type: request.device_type ?? "web", method } });
      return opened;
    }),
  );

/**
 * `POST /user/sign-in`. The password first; an account with two-step sign-in is then asked for its
 * second step (403 `SecondFactorRequired`, no session) and signs in with the password and `code` given
 * together — an authenticator app's code or a recovery code. Once a code is given, a wrong password and
 * a wrong code answer alike, and wrong codes slow the next try down as wrong passwords do. "Remember
 * me" only lengthens the session: it never skips the second step (issue 44).
 */
export const signIn = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(SignInRequest, input);
    const email = normaliseEmail(request.email);
    const at = yield* now;
    const address = yield* clientAddress;
    const config = yield* AccountsConfig;
    yield* throttle(`sign-in:addr:${address}`, config.limits.signInPerAddress);
    const users = yield* Users;
    const found = yield* users.findByEmail(email);
    const code = request.code?.trim() ? request.code.trim() : null;
    // The failure counters belong to the current password, so a reset link lets the owner in at once.
    const epoch = Option.isSome(found) ? found.value.passwordChangedAt.getTime() : 0;
    const passwordKey = passwordSubject(email, epoch);
    // While a delay earned by failures runs, no password is checked, not even the right one.
    yield* awaitSignInTurn(passwordKey, address, MESSAGES.tooManyAttempts);
    // With a code, the second step's delay is awaited before the password is checked, so it says nothing about the password.
    const codeKey = Option.isSome(found) ? secondStepSubject(found.value.id) : secondStepSubject(`unknown:${email}`);
    if (code !== null) yield* awaitSignInTurn(codeKey, address, MESSAGES.tooManyAttempts);
    // A dummy hash keeps the time of an unknown address close to that of a wrong password.
    const hasher = yield* PasswordHasher;
    const matches = Option.isSome(found)
      ? yield* hasher.verify(found.value.passwordHash, request.password)
      : yield* Effect.as(hasher.hash(request.password), false);
    const badCredentials = code === null ? MESSAGES.badCredentials : SECOND_FACTOR_MESSAGES.badSecondStep;
    // A sign-in's writes commit together: each commit waits for PostgreSQL's WAL flush, which every other
    // request's commit queues behind (ADR 0105; seven flushes a sign-in before).
    if (!matches || Option.isNone(found)) {
      yield* transaction(
        Effect.zipRight(
          recordSignInFailure(passwordKey, address),
          audit({ action: "account.sign_in_failed", actorId: Option.isSome(found) ? found.value.id : null, details: { email } }),
        ),
      );
      return yield* ValidationFailed.field("email", badCredentials);
    }

    const user = found.value;
    if (user.secondFactorAt !== null) {
      if (code === null) {
        // The right password, and the second step to come: the password's failures are cleared, the code's are not.
        yield* clearSignInFailures(passwordKey, address);
        return yield* new Forbidden({ message: SECOND_FACTOR_MESSAGES.stepRequired, status: SECOND_FACTOR_STEP_STATUS });
      }
      if (!(yield* secondStepPasses(user, code))) {
        yield* transaction(
          Effect.zipRight(
            recordSignInFailure(codeKey, address),
            audit({ action: "account.sign_in_failed", actorId: user.id, subjectId: user.id, details: { email, step: "second_factor" } }),
          ),
        );
        return yield* ValidationFailed.field("email", badCredentials);
      }
    }
    const refusal = refusalOf(user, at, config.passwordMaxAgeDays);
    // The right password clears the failures even when the account may not sign in now.
    if (refusal !== null) {
      yield* clearSignInFailures(passwordKey, address);
      return yield* refusal;
    }
    const secondFactor = user.secondFactorAt !== null;
    const method = !secondFactor ? "password" : looksLikeRecoveryCode(code ?? "") ? "password+recovery_code" : "password+app";
    const clear = Effect.zipRight(clearSignInFailures(passwordKey, address), secondFactor ? clearSignInFailures(codeKey, address) : Effect.void);
    const { token, session } = yield* admit(user, request, method, secondFactor, clear);
    // The absolute end tells a remembering client how long to keep the token (ADR 32).
    return { token, user, expiresAt: session.expiresAt };
  });

/** `POST /user/sign-in/passkey`: a passkey alone signs in (it is both factors); the account's own refusals still apply. */
export const signInWithPasskey = (input: unknown) =>
  Effect.gen(function* () {
    const { user, request } = yield* passkeySignInUser(input);
    const config = yield* AccountsConfig;
    const refusal = refusalOf(user, yield* now, config.passwordMaxAgeDays);
    if (refusal !== null) return yield* refusal;
    const { token, session } = yield* admit(user, request, "passkey", true, Effect.void);
    return { token, user, expiresAt: session.expiresAt };
  });
