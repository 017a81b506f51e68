import { Effect, Option } from "effect";
import { ValidationFailed } from "../shared/errors.ts";
import { audit, now, Secrets, transaction } from "../shared/ports.ts";
import { clientAddress, throttle } from "../shared/throttle.ts";
import { validate } from "../shared/validation.ts";
import { verificationMail } from "./emails.ts";
import { accountCan } from "./lifecycle.ts";
import { AccountsConfig, normaliseEmail, OneTimeTokens, type User, Users } from "./model.ts";
import { requireStatusAfter } from "./policy.ts";
import { MESSAGES } from "./messages.ts";
import { EmailRequest, VerifyEmailQuery } from "./schemas.ts";
import { issueToken, send } from "./tokens.ts";

const verificationPayload = (id: string, token: string, expires: number) => `verify-email|${id}|${token}|${expires}`;

/**
 * Writes a fresh verification link for the user (older links stop working) and returns the mail
 * that carries it. Callers send it after their transaction commits, so no mail ever carries a
 * link that was rolled back, and no transaction waits on a mail server.
 */
export const issueVerificationLink = (user: User) =>
  Effect.gen(function* () {
    const config = yield* AccountsConfig;
    const secrets = yield* Secrets;
    // Whole seconds: the link signs its expiry as a Unix time.
    const expires = Math.floor((yield* now).getTime() / 1000) + config.verificationTtlSeconds;
    const token = yield* issueToken(user.id, "email_verification", new Date(expires * 1000));
    const signature = secrets.sign(verificationPayload(user.id, token, expires));
    const url = `${config.publicUrl}/verify-email?id=${encodeURIComponent(user.id)}&token=${encodeURIComponent(token)}&expires=${expires}&signature=${signature}`;
    return verificationMail(user.email, user.firstName, url, Math.round(config.verificationTtlSeconds / 3600), user.language);
  });

export const verifyEmail = (id: string, token: string, query: unknown) =>
  Effect.gen(function* () {
    const bad = ValidationFailed.field("token", MESSAGES.badVerificationLink);
    const { expires, signature } = yield* Effect.mapError(validate(VerifyEmailQuery, query), () => bad);
    const secrets = yield* Secrets;
    const at = yield* now;
    if (!secrets.verifySignature(verificationPayload(id, token, expires), signature) || expires * 1000 < at.getTime()) {
      return yield* bad;
    }
    const users = yield* Users;
    const tokens = yield* OneTimeTokens;
    return yield* transaction(
      Effect.gen(function* () {
        const user = yield* Effect.flatMap(users.findById(id), Option.match({ onNone: () => Effect.fail(bad), onSome: Effect.succeed }));
        if (user.emailVerifiedAt !== null) {
          return { message: MESSAGES.alreadyVerified, results: { status: user.status, type: user.type } };
        }
        const consumed = yield* tokens.consume("email_verification", secrets.digest(token), at);
        if (Option.isNone(consumed) || consumed.value.userId !== user.id) return yield* bad;
        const status = yield* requireStatusAfter(user, { type: "EMAIL_VERIFIED" });
        yield* users.update(user.id, { emailVerifiedAt: at, status });
        yield* audit({ action: "account.email_verified", actorId: user.id, subjectId: user.id });
        return { message: MESSAGES.verified, results: { status, type: user.type } };
      }),
    );
  });

/** Answers the same whether or not the address is known, so it reveals nothing. */
export const resendVerification = (input: unknown) =>
  Effect.gen(function* () {
    const { email } = yield* validate(EmailRequest, input);
    const address = normaliseEmail(email);
    yield* throttle(`verify-mail:addr:${yield* clientAddress}`, (yield* AccountsConfig).limits.mailPerAddress);
    yield* throttle(`verify-mail:acct:${address}`, (yield* AccountsConfig).limits.mailPerAccount);
    const user = yield* (yield* Users).findByEmail(address);
    if (Option.isSome(user) && user.value.emailVerifiedAt === null && accountCan(user.value, { type: "EMAIL_VERIFIED" })) {
      yield* send(yield* transaction(issueVerificationLink(user.value)));
    }
    return { message: MESSAGES.verificationSent };
  });
