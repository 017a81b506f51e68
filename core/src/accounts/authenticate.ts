import { Effect, Option } from "effect";
import { Forbidden, Unauthenticated } from "../shared/errors.ts";
import { ACCESS_MESSAGES, baaPending } from "./access.ts";
import { BAA_REQUIRED_STATUS } from "./practice-statuses.ts";
import { SECOND_FACTOR_MESSAGES } from "./second-factor-messages.ts";
import { awaitsSecondFactorSetup, SECOND_FACTOR_SETUP_STATUS } from "./second-factor-model.ts";
import { now, Secrets } from "../shared/ports.ts";
import { type Caller, Sessions, Users } from "./model.ts";
import { isBlocked } from "./lifecycle.ts";

/** Resolves a bearer token to its caller; every failure is the same 401. */
export const authenticate = (token: string | null) =>
  Effect.gen(function* () {
    // Made only when it is the answer: an error captures a stack, and every request comes through here.
    const unauthenticated = () => new Unauthenticated({ message: Unauthenticated.default });
    if (!token) return yield* unauthenticated();
    const secrets = yield* Secrets;
    const sessions = yield* Sessions;
    const at = yield* now;
    // The session with its account in one statement (a lookup each request makes before any work).
    const found = yield* sessions.findWithUser(secrets.digest(token));
    if (Option.isNone(found)) return yield* unauthenticated();
    const { session, user } = found.value;
    const idleExpired = session.idleTimeoutSeconds !== null && at.getTime() - session.lastSeenAt.getTime() > session.idleTimeoutSeconds * 1000;
    if (session.revokedAt !== null || session.expiresAt.getTime() <= at.getTime() || idleExpired) return yield* unauthenticated();
    if (isBlocked(user)) return yield* unauthenticated();
    // A session opened before the account had its second factor never proved it: it ends (issue 44).
    if (user.secondFactorAt !== null && session.secondFactorAt === null) return yield* unauthenticated();
    // Touch at most once a minute: the idle limit is in minutes, and it spares a write per request.
    if (at.getTime() - session.lastSeenAt.getTime() > 60_000) yield* sessions.touch(session.id, at);
    return { user, session } satisfies Caller;
  });

/**
 * May this caller make a call now? A physician, staff member, reviewer or admin whose session has not
 * proved a second factor reaches only the calls of setting one up (`duringSetup`: the profile, the BAA,
 * the second factor's own calls, signing out); every other call, and so every read of a patient, is
 * 403 `SecondFactorSetupRequired` (issue 44). The HTTP adapter asks this for every signed-in call.
 */
export const admitCaller = (caller: Caller, options: { readonly duringSetup: boolean }) => {
  if (!awaitsSecondFactorSetup(caller) || options.duringSetup) return Effect.succeed(caller);
  // The onboarding order: a physician signs the BAA before setting up the second factor, and is told so first.
  if (baaPending(caller.user)) return Effect.fail(new Forbidden({ message: ACCESS_MESSAGES.baaRequired, status: BAA_REQUIRED_STATUS }));
  return Effect.fail(new Forbidden({ message: SECOND_FACTOR_MESSAGES.setupRequired, status: SECOND_FACTOR_SETUP_STATUS }));
};
