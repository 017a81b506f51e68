import { Effect, Option } from "effect";
import { ValidationFailed } from "../shared/errors.ts";
import { audit, now, PasswordHasher, Random, transaction } from "../shared/ports.ts";
import { type UserType, ACTIVE_STATUS } from "./lifecycle.ts";
import { newUser, normaliseEmail, type User, Users } from "./model.ts";
import { MESSAGES } from "./messages.ts";

/** Creates an Active, verified account directly (operators and demo data). */
export const createVerifiedUser = (fields: { email: string; password: string; type: UserType; firstName: string; lastName: string; phone?: string | null }) =>
  Effect.gen(function* () {
    const users = yield* Users;
    const at = yield* now;
    const email = normaliseEmail(fields.email);
    if (Option.isSome(yield* users.findByEmail(email))) return yield* ValidationFailed.field("email", MESSAGES.emailTaken);
    const passwordHash = yield* (yield* PasswordHasher).hash(fields.password);
    const user: User = {
      ...newUser({ id: (yield* Random).identifier(), email, passwordHash, type: fields.type, firstName: fields.firstName, lastName: fields.lastName, phone: fields.phone ?? null, at }),
      status: ACTIVE_STATUS,
      emailVerifiedAt: at,
      // An operator vouches for the accounts it creates: a physician's practice is verified at once.
      practiceVerifiedAt: fields.type === "physician" ? at : null,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* users.insert(user);
        yield* audit({ action: "account.created_by_operator", actorId: null, subjectId: user.id, details: { type: user.type } });
      }),
    );
    return user;
  });

export const findUserByEmail = (email: string) => Effect.flatMap(Users, (users) => users.findByEmail(normaliseEmail(email)));
