import { Effect, Option } from "effect";
import { Unauthenticated } from "../shared/errors.ts";
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
    // Touch at most once a minute: the idle limit is in minutes, and it spares a write per request.
    if (at.getTime() - session.lastSeenAt.getTime() > 60_000) yield* sessions.touch(session.id, at);
    return { user, session } satisfies Caller;
  });
