import type { PGlite } from "@electric-sql/pglite";
import { type LiveEvent, type LiveEventType, LiveEvents, type LiveEventsPort, LiveFeed, type LiveFeedPort, type LiveListener } from "@crown/core";
import { Effect, Layer } from "effect";
import { type Kysely, type Selectable, sql } from "kysely";
import pg from "pg";
import { run } from "./executor.ts";
import type { Database, LiveEventsTable } from "./schema.ts";

/*
 * Live events (migration 2026-11-22T0700): stored per user, announced with NOTIFY in the same
 * transaction, so PostgreSQL tells every listening process exactly when (and only if) they commit.
 * The notification is only a wake-up naming the user; a stream then reads its events after its
 * own cursor, so a lost, merged or late wake-up never loses or repeats an event.
 */

/** NOTIFY channel: payload is the user id whose events were committed. */
export const LIVE_CHANNEL = "crown_live";
/** NOTIFY channel: payload is the id of a session that ended (sign-out). */
export const SESSION_END_CHANNEL = "crown_live_end";

const eventFromRow = (row: Selectable<LiveEventsTable>): LiveEvent => ({
  id: Number(row.id),
  userId: row.user_id,
  type: row.type,
  data: typeof row.data === "string" ? (JSON.parse(row.data) as Record<string, unknown>) : row.data,
  createdAt: row.created_at,
});

export const makeLiveEvents = (db: Kysely<Database>): LiveEventsPort => ({
  // The cursor upsert locks the user's row until commit: the next event of this user (from any
  // transaction, any process) waits, so ids are handed out in commit order.
  append: (userId, type, data, at) =>
    run(db, async (ex) => {
      await sql`
        with cursor as (
          insert into live_event_cursors (user_id, last_id) values (${userId}, 1)
          on conflict (user_id) do update set last_id = live_event_cursors.last_id + 1
          returning last_id
        )
        insert into live_events (user_id, id, type, data, created_at)
        select ${userId}, last_id, ${type}, ${JSON.stringify(data)}::jsonb, ${at} from cursor`.execute(ex);
      await sql`select pg_notify(${LIVE_CHANNEL}, ${userId})`.execute(ex);
    }),
  after: (userId, afterId, limit) =>
    run(db, (ex) =>
      ex.selectFrom("live_events").selectAll().where("user_id", "=", userId).where("id", ">", afterId).orderBy("id").limit(limit).execute(),
    ).pipe(Effect.map((rows) => rows.map(eventFromRow))),
  latestId: (userId) =>
    run(db, (ex) => ex.selectFrom("live_event_cursors").select("last_id").where("user_id", "=", userId).executeTakeFirst()).pipe(
      Effect.map((row) => (row ? Number(row.last_id) : 0)),
    ),
  sessionEnded: (sessionId) => run(db, (ex) => sql`select pg_notify(${SESSION_END_CHANNEL}, ${sessionId})`.execute(ex)).pipe(Effect.asVoid),
  // The cursors stay: ids keep increasing after old events are gone.
  prune: (before) =>
    run(db, (ex) => ex.deleteFrom("live_events").where("created_at", "<", before).executeTakeFirst()).pipe(Effect.map((r) => Number(r.numDeletedRows))),
});

// ---- Hearing NOTIFY -------------------------------------------------------------------------------------

/** Where notifications come from: a dedicated PostgreSQL connection, or the embedded PGlite. */
export interface NotificationSource {
  /** Starts listening on both channels; `resync` is called after a reconnect (wake-ups may have been missed). */
  readonly start: (deliver: (channel: string, payload: string) => void, resync: () => void) => Promise<void>;
  readonly stop: () => Promise<void>;
}

/**
 * A `pg` client of its own, LISTENing (a pooled connection cannot: LISTEN belongs to a session).
 * A dropped connection is reopened with a growing delay; the streams are then woken to catch up.
 */
export const postgresNotificationSource = (databaseUrl: string, log: (message: string) => void = () => undefined): NotificationSource => {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (deliver: (channel: string, payload: string) => void, resync: () => void, attempt: number): Promise<void> => {
    const c = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
    const reconnect = () => {
      if (stopped || client !== c) return;
      client = null;
      c.end().catch(() => undefined);
      const delay = Math.min(30_000, 500 * 2 ** Math.min(attempt, 6));
      retry = setTimeout(() => void connect(deliver, resync, attempt + 1).catch(() => undefined), delay);
    };
    client = c;
    c.on("notification", (n) => deliver(n.channel, n.payload ?? ""));
    c.on("error", (error) => {
      log(`live events: LISTEN connection lost (${error.message}); reconnecting`);
      reconnect();
    });
    c.on("end", reconnect);
    try {
      await c.connect();
      await c.query(`listen ${LIVE_CHANNEL}; listen ${SESSION_END_CHANNEL}`);
      if (attempt > 0) {
        log("live events: LISTEN connection restored");
        resync();
      }
    } catch (error) {
      if (attempt === 0) {
        client = null;
        await c.end().catch(() => undefined);
        throw error;
      }
      reconnect();
    }
  };
  return {
    start: (deliver, resync) => connect(deliver, resync, 0),
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
};

/** PGlite is one process and one connection: its own LISTEN hears the NOTIFY of every commit. */
export const pgliteNotificationSource = (pglite: PGlite): NotificationSource => {
  const unlisten: Array<() => Promise<void>> = [];
  return {
    start: async (deliver) => {
      unlisten.push(await pglite.listen(LIVE_CHANNEL, (payload) => deliver(LIVE_CHANNEL, payload)));
      unlisten.push(await pglite.listen(SESSION_END_CHANNEL, (payload) => deliver(SESSION_END_CHANNEL, payload)));
    },
    stop: async () => {
      for (const u of unlisten.splice(0)) await u().catch(() => undefined);
    },
  };
};

/** The open streams of this process, by user and by session, woken by the source. */
export const makeLiveHub = (source: NotificationSource) => {
  const byUser = new Map<string, Set<LiveListener>>();
  const bySession = new Map<string, Set<LiveListener>>();
  const add = (map: Map<string, Set<LiveListener>>, key: string, l: LiveListener) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(l);
  };
  const remove = (map: Map<string, Set<LiveListener>>, key: string, l: LiveListener) => {
    const set = map.get(key);
    set?.delete(l);
    if (set?.size === 0) map.delete(key);
  };
  const each = (set: Set<LiveListener> | undefined, f: (l: LiveListener) => void) => {
    for (const l of [...(set ?? [])]) {
      try {
        f(l);
      } catch {
        // One broken stream must not keep the others from hearing.
      }
    }
  };
  const deliver = (channel: string, payload: string) => {
    if (channel === LIVE_CHANNEL) each(byUser.get(payload), (l) => l.wake());
    else if (channel === SESSION_END_CHANNEL) each(bySession.get(payload), (l) => l.ended());
  };
  const resync = () => {
    for (const set of byUser.values()) each(set, (l) => l.wake());
  };
  const feed: LiveFeedPort = {
    subscribe: (userId, sessionId, listener) =>
      Effect.sync(() => {
        add(byUser, userId, listener);
        add(bySession, sessionId, listener);
        return () => {
          remove(byUser, userId, listener);
          remove(bySession, sessionId, listener);
        };
      }),
  };
  return {
    feed,
    start: () => source.start(deliver, resync),
    stop: () => source.stop(),
    /** Open streams in this process (for tests and health). */
    size: () => [...byUser.values()].reduce((n, s) => n + s.size, 0),
  };
};
export type LiveHub = ReturnType<typeof makeLiveHub>;

/** The live ports: events over `db`, and the feed of `hub` (started by the caller). */
export const makeLiveLayer = (db: Kysely<Database>, hub: LiveHub) =>
  Layer.mergeAll(Layer.succeed(LiveEvents, makeLiveEvents(db)), Layer.succeed(LiveFeed, hub.feed));

/** No LISTEN available: wake every stream now and then (they read after their own cursors anyway). */
export const pollingNotificationSource = (everyMs = 1000): NotificationSource => {
  let timer: NodeJS.Timeout | null = null;
  return {
    start: async (_deliver, resync) => {
      timer = setInterval(resync, everyMs);
      timer.unref();
    },
    stop: async () => {
      if (timer) clearInterval(timer);
    },
  };
};
