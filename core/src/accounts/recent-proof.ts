import { Effect, Schema } from "effect";
import { Forbidden, RateLimited, ValidationFailed } from "../shared/errors.ts";
import { audit, now, PasswordHasher, RateLimiter } from "../shared/ports.ts";
import { TOO_MANY_ATTEMPTS } from "../shared/messages.ts";
import { Required, validate } from "../shared/validation.ts";
import { type Caller, CurrentUser, type Session, Sessions } from "./model.ts";

/**
 * A fresh proof of identity (issue 44): the sensitive actions — changing the e-mail, the password or
 * the second factor, exporting a family's data, deleting an account — need the password or a passkey
 * given within the last ten minutes in this session. Signing in is a proof; so is `proveIdentity`.
 * Each session records its latest proof (`Session.lastProofAt`, `sessions.last_proof_at`).
 */
export const PROOF_FRESH_SECONDS = 10 * 60;

/** The 403 `status` a client reads to ask for the password (or a passkey) again. */
export const PROOF_REQUIRED_STATUS = "ProofRequired";

export const PROOF_MESSAGES = {
  proofRequired: "For your security, please confirm it is you: enter your password or use a passkey.",
  proved: "Thank you. You can go on.",
  wrongPassword: "The password is incorrect.",
  tooManyAttempts: TOO_MANY_ATTEMPTS,
} as const;

/** Was this session's identity proved within the last ten minutes at `at`? */
export const proofIsFresh = (session: Pick<Session, "lastProofAt">, at: Date): boolean =>
  at.getTime() - session.lastProofAt.getTime() <= PROOF_FRESH_SECONDS * 1000;

/** Fails with 403 `ProofRequired` unless the caller proved who they are in the last ten minutes. */
export const requireRecentProof: Effect.Effect<Caller, Forbidden, CurrentUser> = Effect.gen(function* () {
  const caller = yield* CurrentUser;
  const at = yield* now;
  if (!proofIsFresh(caller.session, at)) {
    return yield* new Forbidden({ message: PROOF_MESSAGES.proofRequired, status: PROOF_REQUIRED_STATUS });
  }
  return caller;
});

/** Five wrong passwords in 15 minutes, then wait: a stolen session must not become a password oracle. */
export const PROOF_LIMIT = { limit: 5, windowSeconds: 15 * 60 } as const;

export const ProofRequest = Schema.Struct({ password: Required("Password") });

/** Records a proof in this session (a password checked here, a passkey checked by its use case). */
export const recordProof = (session: Session) =>
  Effect.gen(function* () {
    const at = yield* now;
    yield* (yield* Sessions).recordProof(session.id, at);
    return at;
  });

/** `POST /user/proof` with `{ password }`: proves the caller's identity again for ten minutes. */
export const proveWithPassword = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ProofRequest, input);
    const { user, session } = yield* CurrentUser;
    const at = yield* now;
    const verdict = yield* (yield* RateLimiter).hit(`proof:${user.id}`, PROOF_LIMIT.limit, PROOF_LIMIT.windowSeconds, at);
    if (!verdict.allowed) return yield* new RateLimited({ message: PROOF_MESSAGES.tooManyAttempts, retryAfterSeconds: verdict.retryAfterSeconds });
    if (!(yield* (yield* PasswordHasher).verify(user.passwordHash, request.password))) {
      yield* audit({ action: "account.proof_failed", actorId: user.id, subjectId: user.id, details: { method: "password" } });
      return yield* ValidationFailed.field("password", PROOF_MESSAGES.wrongPassword);
    }
    yield* recordProof(session);
    yield* audit({ action: "account.proof", actorId: user.id, subjectId: user.id, details: { method: "password" } });
    return { message: PROOF_MESSAGES.proved, provedAt: at };
  });
