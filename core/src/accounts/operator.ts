import { Effect } from "effect";
import { audit, now, PasswordHasher, transaction } from "../shared/ports.ts";
import { Sessions, Users } from "./model.ts";

/**
 * An operator (the CLI, the demo seed) replaces an account's password: every session of the
 * account ends with the old password, and the change is audited without the operator's name.
 */
export const setPasswordByOperator = (userId: string, password: string, reason: string) =>
  Effect.gen(function* () {
    const passwordHash = yield* (yield* PasswordHasher).hash(password);
    const at = yield* now;
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* Users).update(userId, { passwordHash, passwordChangedAt: at });
        yield* (yield* Sessions).revokeAllForUser(userId, at);
        yield* audit({ action: "account.password_set_by_operator", actorId: null, subjectId: userId, details: { reason } });
      }),
    );
  });
