import { fill } from "../shared/i18n.ts";
import { STATUS_MESSAGES } from "../shared/messages.ts";
import { Effect, Option } from "effect";
import { changeStatus } from "../accounts/change-status.ts";
import { accountCan, type AccountEvent } from "../accounts/lifecycle.ts";
import { type User, Users } from "../accounts/model.ts";
import { requireActive } from "../accounts/access.ts";
import { Conflict, NotFound } from "../shared/errors.ts";
import type { OutgoingMail } from "../shared/ports.ts";

/** Approvals are an administrator's. */
export const requireAdmin = requireActive("admin");

/**
 * An administrator's decision on an account waiting for approval, inside the caller's transaction:
 * the account machine moves the status; `tell` writes what the account is told (bell, e-mail).
 */
export const decideWaiting = <R>(userId: string, event: Extract<AccountEvent, { type: "APPROVED" | "REJECTED" }>, actorId: string | null, tell: (user: User) => Effect.Effect<OutgoingMail, never, R>) =>
  Effect.gen(function* () {
    const user = yield* Effect.flatMap((yield* Users).findById(userId), Option.match({ onNone: () => Effect.fail(NotFound.of("User")), onSome: Effect.succeed }));
    if (!accountCan(user, event)) return yield* new Conflict({ message: fill(STATUS_MESSAGES.notWaiting, { status: user.status }) });
    const changed = yield* changeStatus(user.id, event, actorId);
    return { result: { identifier: changed.id, email: changed.email, status: changed.status }, mail: yield* tell(user) };
  });
