import { Effect } from "effect";
import { ValidationFailed } from "../shared/errors.ts";
import { audit, now, PasswordHasher, transaction } from "../shared/ports.ts";
import { throttle } from "../shared/throttle.ts";
import { validate } from "../shared/validation.ts";
import { passwordChangedMail } from "./emails.ts";
import { AccountsConfig, CurrentUser, Sessions, Users } from "./model.ts";
import { MESSAGES } from "./messages.ts";
import { ChangePasswordRequest } from "./schemas.ts";
import { send } from "./tokens.ts";
import { refuseCommonPassword } from "./common-passwords.ts";

export const changePassword = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ChangePasswordRequest, input);
    const { user, session } = yield* CurrentUser;
    const hasher = yield* PasswordHasher;
    const at = yield* now;
    yield* throttle(`change-password:${user.id}`, (yield* AccountsConfig).limits.changePasswordPerAccount);
    if (!(yield* hasher.verify(user.passwordHash, request.old_password))) {
      yield* audit({ action: "account.password_change_failed", actorId: user.id, subjectId: user.id });
      return yield* ValidationFailed.field("old_password", MESSAGES.wrongOldPassword);
    }
    if (request.old_password === request.new_password) return yield* ValidationFailed.field("new_password", MESSAGES.samePassword);
    yield* refuseCommonPassword(request.new_password, "new_password");
    const passwordHash = yield* hasher.hash(request.new_password);
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* Users).update(user.id, { passwordHash, passwordChangedAt: at });
        yield* (yield* Sessions).revokeAllForUser(user.id, at, session.id);
        yield* audit({ action: "account.password_changed", actorId: user.id, subjectId: user.id });
      }),
    );
    yield* send(passwordChangedMail(user.email, user.firstName, user.language));
    return { message: MESSAGES.passwordChanged };
  });
