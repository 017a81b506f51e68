import { Effect, Option } from "effect";
import { audit, now } from "../shared/ports.ts";
import { LiveEvents } from "../shared/live-events.ts";
import { CurrentUser, Sessions } from "./model.ts";
import { MESSAGES } from "./messages.ts";
import { awaitsApproval } from "./lifecycle.ts";

export const signOut = Effect.gen(function* () {
  const { user, session } = yield* CurrentUser;
  yield* (yield* Sessions).revoke(session.id, yield* now);
  // Open event streams of this session close now rather than at their next check.
  const live = yield* Effect.serviceOption(LiveEvents);
  if (Option.isSome(live)) yield* live.value.sessionEnded(session.id);
  yield* audit({ action: "account.sign_out", actorId: user.id, subjectId: user.id });
  // The spec's sign-out after a child submission that waits for an administrator.
  return { message: awaitsApproval(user) ? MESSAGES.signedOutWaitingApproval : MESSAGES.signedOut };
});
