import { Effect, Option, Schema } from "effect";
import { composeIn, greeting, mailText } from "../i18n/mails/index.ts";
import { requireActive } from "./access.ts";
import { Conflict, NotFound } from "../shared/errors.ts";
import { audit, now, transaction } from "../shared/ports.ts";
import { Required, validate } from "../shared/validation.ts";
import { Sessions, type User, Users } from "./model.ts";
import { SECOND_FACTOR_MESSAGES } from "./second-factor-messages.ts";
import { SecondFactors } from "./second-factor-model.ts";
import { send } from "./tokens.ts";

/** The e-mail telling a user their second factor was reset, in their language. */
export const secondFactorResetMail = (user: User) => {
  const t = mailText(user.language, "twoStep");
  return composeIn(user.language, {
    to: user.email,
    subject: t("resetSubject"),
    greeting: greeting(user.language, user.firstName),
    paragraphs: [t("reset"), t("setUpAgain"), t("notYou")],
  });
};

export const ResetSecondFactorRequest = Schema.Struct({ identifier: Required("Identifier") });

/**
 * `POST /admin/users/second-factor/reset`: an administrator clears a user's second factor (a lost phone
 * and lost codes). Every factor and every session of the user end together, the reset is audited, and
 * the user is told by e-mail; a user who must have two-step sign-in sets it up again at the next
 * sign-in — the reset never lets anyone past the second step (issue 44).
 */
export const resetSecondFactor = (input: unknown) =>
  Effect.gen(function* () {
    const admin = yield* requireActive("admin");
    const { identifier } = yield* validate(ResetSecondFactorRequest, input);
    const users = yield* Users;
    const found = yield* users.findById(identifier);
    if (Option.isNone(found)) return yield* NotFound.of("User");
    const user = found.value;
    if (user.secondFactorAt === null) return yield* new Conflict({ message: SECOND_FACTOR_MESSAGES.resetNothing });
    const at = yield* now;
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* SecondFactors).removeAll(user.id);
        yield* users.update(user.id, { secondFactorAt: null });
        yield* (yield* Sessions).revokeAllForUser(user.id, at);
        yield* audit({ action: "account.second_factor_reset", actorId: admin.user.id, subjectId: user.id });
      }),
    );
    yield* send(secondFactorResetMail(user));
    return { message: SECOND_FACTOR_MESSAGES.reset };
  });
