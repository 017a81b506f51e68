import { Context, Effect } from "effect";

/**
 * Live events: what one signed-in tab hears over its Server-Sent Events stream. Every event is
 * stored (table `live_events`) with an id that increases per user in commit order, so a tab that
 * reconnects with `Last-Event-ID` gets exactly the events it missed, none twice.
 */

export const LIVE_EVENT_TYPES = [
  /** A chat message in a conversation the user takes part in (own, or as support). */
  "chat.message",
  /** The other side read messages (a read receipt). */
  "chat.read",
  /** The user's unread chat count (support: unread in the inbox). */
  "chat.unread",
  /** A conversation was assigned, closed or reopened (support inbox). */
  "chat.conversation",
  /** The user's unread notification count (the bell). */
  "notifications.count",
  /** A report of the user (or of a patient) changed status. */
  "report.status",
] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

export interface LiveEvent {
  /** Increases by one per user, in commit order: the SSE `id`. */
  readonly id: number;
  readonly userId: string;
  readonly type: LiveEventType;
  readonly data: Readonly<Record<string, unknown>>;
  readonly createdAt: Date;
}

export interface LiveEventsPort {
  /**
   * Appends an event for `userId` to the current transaction. It is heard (in every server
   * process) only when that transaction commits, and never if it rolls back.
   */
  readonly append: (userId: string, type: LiveEventType, data: Readonly<Record<string, unknown>>, at: Date) => Effect.Effect<void>;
  /** The user's events with an id above `afterId`, oldest first, at most `limit`. */
  readonly after: (userId: string, afterId: number, limit: number) => Effect.Effect<ReadonlyArray<LiveEvent>>;
  /** The user's newest event id (0 when none). */
  readonly latestId: (userId: string) => Effect.Effect<number>;
  /** Tells every process that a session ended, so that its streams close now. */
  readonly sessionEnded: (sessionId: string) => Effect.Effect<void>;
  /** Drops events older than `before` (a tab away that long reloads instead of replaying). */
  readonly prune: (before: Date) => Effect.Effect<number>;
}
export class LiveEvents extends Context.Tag("crown/LiveEvents")<LiveEvents, LiveEventsPort>() {}

export interface LiveListener {
  /** Events of the user were committed (read them with `LiveEvents.after`). */
  readonly wake: () => void;
  /** The session was ended (sign-out): the stream closes. */
  readonly ended: () => void;
}

/** Wake-ups for open streams, from this process and every other (PostgreSQL LISTEN/NOTIFY). */
export interface LiveFeedPort {
  /** Answers the function that unsubscribes. */
  readonly subscribe: (userId: string, sessionId: string, listener: LiveListener) => Effect.Effect<() => void>;
}
export class LiveFeed extends Context.Tag("crown/LiveFeed")<LiveFeed, LiveFeedPort>() {}
