import { Effect, Option } from "effect";
import { type Caller, CurrentUser, Sessions, Users } from "../accounts/model.ts";
import { Unauthenticated } from "../shared/errors.ts";
import { now, Secrets } from "../shared/ports.ts";
import { type LiveEvent, LiveEvents, type LiveEventType } from "./model.ts";

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
    return Option.isSome(user) && user.value.status !== "Blocked";
  });

// ---- Stream tickets ---------------------------------------------------------------------------------

/*
 * EventSource cannot set an Authorization header, so the stream also takes `?token=`. A session
 * token in a URL can end up in access logs and browser history; a ticket narrows that: it names the
 * session (by its stored digest, not the token) and is signed, opens only the event stream, and dies
 * with the session. `GET /chat/token` hands one to the widget.
 */
const TICKET_PREFIX = "lt1";
const ticketPayload = (digest: string) => `live-ticket|${digest}`;

export const streamTicket = Effect.gen(function* () {
  const { session } = yield* CurrentUser;
  const secrets = yield* Secrets;
  return `${TICKET_PREFIX}.${session.tokenDigest}.${secrets.sign(ticketPayload(session.tokenDigest))}`;
});

/** The session digest a ticket names, or null when the text is not a valid ticket. */
export const ticketDigest = (ticket: string) =>
  Effect.map(Secrets, (secrets) => {
    const [prefix, digest, signature] = ticket.split(".");
    if (prefix !== TICKET_PREFIX || !digest || !signature || ticket.split(".").length !== 3) return null;
    return secrets.verifySignature(ticketPayload(digest), signature) ? digest : null;
  });

/** Resolves a stream ticket to its caller, with the same checks as `authenticate` (and the same 401). */
export const authenticateTicket = (ticket: string) =>
  Effect.gen(function* () {
    const unauthenticated = new Unauthenticated({ message: Unauthenticated.default });
    const digest = yield* ticketDigest(ticket);
    if (digest === null) return yield* unauthenticated;
    const found = yield* (yield* Sessions).findByDigest(digest);
    if (Option.isNone(found)) return yield* unauthenticated;
    const user = yield* (yield* Users).findById(found.value.userId);
    if (Option.isNone(user)) return yield* unauthenticated;
    const caller: Caller = { user: user.value, session: found.value };
    if (!(yield* sessionStillLive(caller))) return yield* unauthenticated;
    return caller;
  });

export const isTicket = (token: string) => token.startsWith(`${TICKET_PREFIX}.`);
