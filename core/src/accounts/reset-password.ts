import { Effect, Option } from "effect";
import { ValidationFailed } from "../shared/errors.ts";
import { audit, now, PasswordHasher, Secrets, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { passwordChangedMail } from "./emails.ts";
import { AccountHooks, OneTimeTokens, Sessions, Users } from "./model.ts";
import { requireStatusAfter } from "./policy.ts";
import { MESSAGES } from "./messages.ts";
import { InvitationNames, ResetPasswordRequest } from "./schemas.ts";
import { send } from "./tokens.ts";
import { refuseCommonPassword } from "./common-passwords.ts";

export const resetPassword = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ResetPasswordRequest, input);
    // Before the link is used: a refused password leaves the link working for a better one.
    yield* refuseCommonPassword(request.password);
    const secrets = yield* Secrets;
    const users = yield* Users;
    const at = yield* now;
    const passwordHash = yield* (yield* PasswordHasher).hash(request.password);
    const { user, mails } = yield* transaction(
      Effect.gen(function* () {
        const tokens = yield* OneTimeTokens;
        const digest = secrets.digest(request.token);
        // An invitation link (staff, caregivers) works like a reset link that also proves the e-mail.
        const reset = yield* tokens.consume("password_reset", digest, at);
        const consumed = Option.isSome(reset) ? reset : yield* tokens.consume("invitation", digest, at);
        if (Option.isNone(consumed)) return yield* ValidationFailed.field("token", MESSAGES.badResetLink);
        const user = yield* Effect.flatMap(users.findById(consumed.value.userId), Option.match({
          onNone: () => Effect.fail(ValidationFailed.field("token", MESSAGES.badResetLink)),
          onSome: Effect.succeed,
        }));
        yield* users.update(user.id, { passwordHash, passwordChangedAt: at });
        yield* (yield* Sessions).revokeAllForUser(user.id, at);
        yield* audit({ action: "account.password_reset", actorId: user.id, subjectId: user.id });
        if (consumed.value.purpose === "invitation" && user.emailVerifiedAt === null) {
          // An invited account starts without a name (staff) or with the patient's last name (caregivers):
          // the invitee names themself here, as sign-up would have asked.
          const names = yield* validate(InvitationNames, { first_name: request.first_name || user.firstName, last_name: request.last_name || user.lastName });
          const status = yield* requireStatusAfter(user, { type: "EMAIL_VERIFIED" });
          yield* users.update(user.id, { emailVerifiedAt: at, status, firstName: names.first_name, lastName: names.last_name });
          yield* audit({ action: "account.invitation_accepted", actorId: user.id, subjectId: user.id, details: { from: user.status, to: status } });
          const hooks = yield* Effect.serviceOption(AccountHooks);
          // The hooks' mails (e.g. "your invitation was accepted") go out after the commit, like ours.
          const hookMails = Option.isSome(hooks)
            ? yield* hooks.value.invitationAccepted({ ...user, passwordHash, emailVerifiedAt: at, status, firstName: names.first_name, lastName: names.last_name })
            : [];
          return { user, mails: hookMails };
        }
        return { user, mails: [passwordChangedMail(user.email, user.firstName, user.language)] };
      }),
    );
    for (const mail of mails) yield* send(mail);
    return { message: MESSAGES.passwordChanged };
  });
