import { Effect, Option } from "effect";
import { type Caller, CurrentUser, Sessions, Users } from "../accounts/model.ts";
import { isBlocked } from "../accounts/lifecycle.ts";
import { now } from "../shared/ports.ts";
import { type LiveEvent, LiveEvents, type LiveEventType } from "../shared/live-events.ts";

/**
 * Publishes a live event to a user. Call it inside the transaction of the change it reports: the
 * event is stored with the change and heard only once the transaction commits (in every process).
 * Without a LiveEvents layer (unit tests, the CLI) it does nothing, so any use case may call it.
 */
export const publish = (userId: string, type: LiveEventType, data: Readonly<Record<string, unknown>>) =>
  Effect.gen(function* () {
    const live = yield* Effect.serviceOption(LiveEvents);
    if (Option.isNone(live)) return;
    yield* live.value.append(userId, type, data, yield* now);
  });

/** The same event to several users (each once). */
export const publishToAll = (userIds: Iterable<string>, type: LiveEventType, data: Readonly<Record<string, unknown>>) =>
  Effect.forEach(new Set(userIds), (id) => publish(id, type, data), { discard: true });

/** How long stored events can be replayed after a dropped connection. */
export const LIVE_RETENTION_SECONDS = 7 * 24 * 3600;
/** Events sent per read while catching up. */
export const LIVE_BATCH = 200;
/** How often an open stream re-checks its session (and sends a keep-alive). */
export const LIVE_SESSION_CHECK_SECONDS = 15;

/** Where a new stream starts: after `Last-Event-ID` when the tab had one, else after the newest event. */
export const streamStart = (lastEventId: string | null | undefined) =>
  Effect.gen(function* () {
    const { user } = yield* CurrentUser;
    const latest = yield* (yield* LiveEvents).latestId(user.id);
    const parsed = lastEventId !== null && lastEventId !== undefined && /^\d{1,15}$/.test(lastEventId.trim()) ? Number(lastEventId.trim()) : null;
    // An id from the future (a reset database) or garbage: start from now rather than never hear anything.
    return parsed !== null && parsed <= latest ? parsed : latest;
  });

/** The caller's events after `cursor`, oldest first (one batch). */
export const eventsAfter = (cursor: number): Effect.Effect<ReadonlyArray<LiveEvent>, never, CurrentUser | LiveEvents> =>
  Effect.gen(function* () {
    const { user } = yield* CurrentUser;
    return yield* (yield* LiveEvents).after(user.id, cursor, LIVE_BATCH);
  });

/**
 * Whether the stream's session is still live. Unlike `authenticate` it does not touch the session:
 * an open tab is not activity, so the idle timeout still ends a forgotten session.
 */
export const sessionStillLive = (caller: Caller) =>
  Effect.gen(function* () {
    const at = yield* now;
    const found = yield* (yield* Sessions).findByDigest(caller.session.tokenDigest);
    if (Option.isNone(found)) return false;
    const s = found.value;
    if (s.revokedAt !== null || s.expiresAt.getTime() <= at.getTime()) return false;
    if (s.idleTimeoutSeconds !== null && at.getTime() - s.lastSeenAt.getTime() > s.idleTimeoutSeconds * 1000) return false;
    const user = yield* (yield* Users).findById(s.userId);
    return Option.isSome(user) && !isBlocked(user.value);
  });

// Stream tickets (single use, short-lived) live in tickets.ts.
export { authenticateTicket, isTicket, STREAM_TICKET_SECONDS, streamTicket } from "./tickets.ts";
