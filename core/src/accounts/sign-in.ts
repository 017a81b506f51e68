import { Effect, Option } from "effect";
import { Forbidden, ValidationFailed } from "../shared/errors.ts";
import { audit, now, PasswordHasher, Random, Secrets, transaction } from "../shared/ports.ts";
import { clientAddress, throttle } from "../shared/throttle.ts";
import { validate } from "../shared/validation.ts";
import { AccountsConfig, normaliseEmail, type Session, Sessions, type User, Users } from "./model.ts";
import { sessionLifetime } from "./policy.ts";
import { MESSAGES } from "./messages.ts";
import { SignInRequest } from "./schemas.ts";
import { awaitSignInTurn, clearSignInFailures, recordSignInFailure } from "./sign-in-throttle.ts";
import { awaitsEmailVerification, isBlocked } from "./lifecycle.ts";

/** Opens a session and returns its token; only the token's digest is stored. */
export const openSession = (user: User, options: { rememberMe: boolean; deviceType: string }) =>
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
    };
    yield* (yield* Sessions).insert(session);
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
    // The failure counters belong to the current password, so a reset link lets the owner in at once.
    const epoch = Option.isSome(found) ? found.value.passwordChangedAt.getTime() : 0;
    // While a delay earned by failures runs, no password is checked, not even the right one.
    yield* awaitSignInTurn(email, epoch, address, MESSAGES.tooManyAttempts);
    // A dummy hash keeps the time of an unknown address close to that of a wrong password.
    const hasher = yield* PasswordHasher;
    const matches = Option.isSome(found)
      ? yield* hasher.verify(found.value.passwordHash, request.password)
      : yield* Effect.as(hasher.hash(request.password), false);
    // A sign-in's writes commit together: each commit waits for PostgreSQL's WAL flush, which every other
    // request's commit queues behind (ADR 0105; seven flushes a sign-in before).
    if (!matches || Option.isNone(found)) {
      yield* transaction(
        Effect.zipRight(
          recordSignInFailure(email, epoch, address),
          audit({ action: "account.sign_in_failed", actorId: Option.isSome(found) ? found.value.id : null, details: { email } }),
        ),
      );
      return yield* ValidationFailed.field("email", MESSAGES.badCredentials);
    }

    const user = found.value;
    const refusal = refusalOf(user, at, config.passwordMaxAgeDays);
    // The right password clears the failures even when the account may not sign in now.
    if (refusal !== null) {
      yield* clearSignInFailures(email, epoch, address);
      return yield* refusal;
    }
    const { token, session } = yield* transaction(
      Effect.gen(function* () {
        yield* clearSignInFailures(email, epoch, address);
        const opened = yield* openSession(user, { rememberMe: request.remember_me === true, deviceType: request.device_type ?? "web" });
        yield* audit({ action: "account.sign_in", actorId: user.id, subjectId: user.id, details: { device_type: request.device_type ?? "web" } });
        return opened;
      }),
    );
    // The absolute end tells a remembering client how long to keep the token (ADR 32).
    return { token, user, expiresAt: session.expiresAt };
  });
