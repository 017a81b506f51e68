import { Effect } from "effect";
import { Mailer, now, type OutgoingMail, Random, Secrets } from "../shared/ports.ts";
import { OneTimeTokens, type TokenPurpose } from "./model.ts";

/**
 * Issues a one-time token for a user: older unused tokens of the purpose stop working, only the
 * digest is stored, and the secret is answered once for the link that carries it.
 */
export const issueToken = (userId: string, purpose: TokenPurpose, expiresAt: Date) =>
  Effect.gen(function* () {
    const random = yield* Random;
    const secrets = yield* Secrets;
    const tokens = yield* OneTimeTokens;
    const at = yield* now;
    const token = random.secret(32);
    yield* tokens.retireAll(userId, purpose, at);
    yield* tokens.insert({
      id: random.identifier(),
      userId,
      purpose,
      digest: secrets.digest(token),
      expiresAt,
      consumedAt: null,
      createdAt: at,
    });
    return token;
  });

/** Sends one mail; use cases call it after their transaction has committed. */
export const send = (mail: OutgoingMail) => Effect.flatMap(Mailer, (mailer) => mailer.send(mail));
