import { Effect, Option } from "effect";
import { NotFound } from "../shared/errors.ts";
import { audit, now, transaction } from "../shared/ports.ts";
import { type AccountEvent, isBlocked } from "./lifecycle.ts";
import { Sessions, Users } from "./model.ts";
import { requireStatusAfter } from "./policy.ts";

/** Moves an account through the status machine (approve, reject, block, unblock). */
export const changeStatus = (userId: string, event: AccountEvent, actorId: string | null) =>
  Effect.gen(function* () {
    const users = yield* Users;
    return yield* transaction(
      Effect.gen(function* () {
        const user = yield* Effect.flatMap(users.findById(userId), Option.match({ onNone: () => Effect.fail(NotFound.of("User")), onSome: Effect.succeed }));
        const status = yield* requireStatusAfter(user, event);
        yield* users.update(user.id, { status });
        if (isBlocked({ status })) yield* (yield* Sessions).revokeAllForUser(user.id, yield* now);
        yield* audit({ action: `account.${event.type.toLowerCase()}`, actorId, subjectId: user.id, details: { from: user.status, to: status } });
        return { ...user, status };
      }),
    );
  });
