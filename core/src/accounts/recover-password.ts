import { Effect, Option } from "effect";
import { audit, now, Random, requestLanguage, transaction } from "../shared/ports.ts";
import { clientAddress, throttle } from "../shared/throttle.ts";
import { validate } from "../shared/validation.ts";
import { passwordResetMail, resetUnavailableMail } from "./emails.ts";
import { AccountsConfig, normaliseEmail, OneTimeTokens, Users } from "./model.ts";
import { MESSAGES } from "./messages.ts";
import { EmailRequest } from "./schemas.ts";
import { issueToken, send } from "./tokens.ts";
import { isBlocked } from "./lifecycle.ts";

/** Answers the same whether or not the address is known, so it reveals nothing. */
export const recoverPassword = (input: unknown) =>
  Effect.gen(function* () {
    const { email } = yield* validate(EmailRequest, input);
    const address = normaliseEmail(email);
    const config = yield* AccountsConfig;
    yield* throttle(`recover:addr:${yield* clientAddress}`, config.limits.mailPerAddress);
    yield* throttle(`recover:acct:${address}`, config.limits.mailPerAccount);
    const found = yield* (yield* Users).findByEmail(address);
    const user = Option.filter(found, (u) => !isBlocked(u));
    // Known or not, the same work: one transaction with an audit row and a token statement, one
    // queued mail; only the mail's words differ (no timing tells whether the address has an account).
    const at = yield* now;
    const mail = yield* transaction(
      Effect.gen(function* () {
        yield* audit({ action: "account.password_reset_requested", actorId: null, subjectId: Option.isSome(user) ? user.value.id : null });
        if (Option.isNone(user)) {
          // No account: the same token statement (it matches nothing), like sign-in's dummy hash.
          yield* (yield* OneTimeTokens).retireAll((yield* Random).identifier(), "password_reset", at);
          // No account to ask: the language of the call.
          return resetUnavailableMail(address, `${config.publicUrl}/sign-up`, yield* requestLanguage);
        }
        const token = yield* issueToken(user.value.id, "password_reset", new Date(at.getTime() + config.resetTtlSeconds * 1000));
        const url = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.value.email)}`;
        return passwordResetMail(user.value.email, user.value.firstName, url, Math.round(config.resetTtlSeconds / 60), user.value.language);
      }),
    );
    yield* send(mail);
    return { message: MESSAGES.resetSent };
  });
