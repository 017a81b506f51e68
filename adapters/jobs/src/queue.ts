import { randomUUID } from "node:crypto";
import { JobQueue, type JobQueuePort } from "@crown/core/shared/jobs";
import { type Database, type Executor, executor } from "@crown/db";
import { Effect, Layer } from "effect";
import { type Kysely, sql } from "kysely";
import PgBoss from "pg-boss";
import { pgBossDb } from "./pg-boss-db.ts";

/**
 * The job queue: pg-boss 10 in the application's own PostgreSQL (or PGlite) database, schema
 * `pgboss`, reached through the Kysely executor (./pg-boss-db.ts, docs/adr/0005-job-queue.md).
 * `enqueue` sends on the current executor, so a job enqueued inside `Transactor.run` commits or
 * rolls back with the transaction that caused it.
 */

/** The PostgreSQL schema pg-boss keeps its tables in. */
export const PG_BOSS_SCHEMA = "pgboss";
/** Attempts of a job unless its enqueue says otherwise. */
export const DEFAULT_MAX_ATTEMPTS = 5;
/** First retry delay (s); pg-boss doubles it with each attempt, with jitter (up to twice as long). */
export const DEFAULT_BACKOFF_SECONDS = 5;
/**
 * A running job's worker beats every HEARTBEAT_SECONDS, pushing the job's expiry this far ahead; a
 * job whose worker stops beating (killed, crashed) expires within this window and is retried if it
 * has attempts left (s). Short, so that a crash delays a report by about a minute, not 15 (ADR 0029).
 */
export const DEFAULT_EXPIRE_SECONDS = 45;
export const HEARTBEAT_SECONDS = 10;

/** One attempt of a job, as a handler sees it. */
export interface JobRow {
  readonly id: string;
  readonly name: string;
  readonly payload: Record<string, unknown>;
  /** This attempt's number, from 1. */
  readonly attempts: number;
  readonly max_attempts: number;
}

const bossOptions = (db: PgBoss.Db, more: Partial<PgBoss.ConstructorOptions> = {}): PgBoss.ConstructorOptions => ({
  db,
  schema: PG_BOSS_SCHEMA,
  // No cron jobs, and maintenance only in workers (below).
  schedule: false,
  supervise: false,
  ...more,
});

/**
 * Every queue is `stately`: at most one job per key waits (created or retry) and one runs; a repeated
 * enqueue of a waiting key is a no-op. Jobs enqueued without a key get a key of their own.
 */
const QUEUE_OPTIONS: PgBoss.Queue = { name: "", policy: "stately" };

interface Prepared {
  /** Sends on the executor passed per call; creates the schema (pg-boss's own migrations) on start. */
  readonly boss: PgBoss;
  /** Queues known to exist (committed). */
  readonly queues: Set<string>;
}

const prepared = new WeakMap<Kysely<Database>, Promise<Prepared>>();

/**
 * Creates a queue (idempotent) in a transaction that first takes an advisory lock: two
 * `create_queue` calls at once (two processes starting, or the server's layer and its worker)
 * would otherwise deadlock on the foreign keys each new partition adds to `pgboss.queue`.
 * Inside a transaction already, the queue is created in it, and exists exactly when its job does.
 */
const createQueue = async (ex: Executor, name: string) => {
  const create = async (tx: Executor) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`${PG_BOSS_SCHEMA}.create_queue`}))`.execute(tx);
    await new PgBoss(bossOptions(pgBossDb(tx))).createQueue(name, { ...QUEUE_OPTIONS, name });
  };
  if (ex.isTransaction) await create(ex);
  else await ex.transaction().execute(create);
};

const createQueues = async (db: Kysely<Database>, known: Set<string>, names: Iterable<string>) => {
  for (const name of names) {
    if (known.has(name)) continue;
    await createQueue(db, name);
    known.add(name);
  }
};

/**
 * Installs or migrates pg-boss's schema (under its advisory lock, so concurrent processes are safe)
 * and creates the named queues, once per database. Runs outside any transaction.
 */
export const prepareJobQueue = async (db: Kysely<Database>, queues: Iterable<string> = []): Promise<Prepared> => {
  let ready = prepared.get(db);
  if (!ready) {
    ready = (async () => {
      const boss = new PgBoss(bossOptions(pgBossDb(db)));
      boss.on("error", (error) => console.error(JSON.stringify({ at: new Date().toISOString(), level: "error", msg: "pg-boss error", error: String(error.message).slice(0, 500) })));
      await boss.start();
      const existing = await boss.getQueues();
      return { boss, queues: new Set(existing.map((q) => q.name)) };
    })();
    prepared.set(db, ready);
    ready.catch(() => prepared.delete(db));
  }
  const p = await ready;
  await createQueues(db, p.queues, queues);
  return p;
};

/** Only a queue created outside a transaction (committed) is remembered. */
const ensureQueueOn = async (p: Prepared, db: Kysely<Database>, ex: Executor, name: string) => {
  if (p.queues.has(name)) return;
  if (ex === db) await createQueues(db, p.queues, [name]);
  else await createQueue(ex, name);
};

export const makeJobQueue = (db: Kysely<Database>, p: Prepared): JobQueuePort => ({
  enqueue: (job) =>
    Effect.flatMap(executor(db), (ex) =>
      Effect.promise(async () => {
        await ensureQueueOn(p, db, ex, job.name);
        await p.boss.send(job.name, job.payload, {
          db: pgBossDb(ex),
          singletonKey: job.key ?? randomUUID(),
          retryLimit: Math.max(1, job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS) - 1,
          retryDelay: DEFAULT_BACKOFF_SECONDS,
          retryBackoff: true,
          expireInSeconds: DEFAULT_EXPIRE_SECONDS,
        });
      }),
    ).pipe(Effect.asVoid),
});

/** The `JobQueue` port; builds pg-boss's schema on first use, and the named queues. */
export const jobQueueLayer = (db: Kysely<Database>, queues: Iterable<string> = []) =>
  Layer.effect(
    JobQueue,
    Effect.map(
      Effect.promise(() => prepareJobQueue(db, queues)),
      (p) => makeJobQueue(db, p),
    ),
  );

/**
 * pg-boss's maintenance, now: fails (and retries, if attempts remain) jobs active past their
 * expiry, whose worker died; archives and deletes old jobs. Workers run it every minute.
 */
export const maintainJobQueue = async (db: Kysely<Database>) => {
  await (await prepareJobQueue(db)).boss.maintain();
};

export type JobHandler = (payload: Record<string, unknown>, job: JobRow) => Promise<void>;

export interface WorkerOptions {
  readonly db: Kysely<Database>;
  readonly handlers: Readonly<Record<string, JobHandler>>;
  /** How often to look for work when idle (ms; pg-boss's minimum is 500). */
  readonly pollMs?: number;
  /** Jobs of each queue run at once by this worker. */
  readonly concurrency?: number;
  /**
   * Overrides the retry delay of the jobs this worker fails (s; 0: retry at once, for tests).
   * Unset: the job's own (5 s, doubling with jitter).
   */
  readonly backoffSeconds?: number;
  /** How often this worker runs pg-boss's maintenance: expiring jobs of dead workers, archiving (s). */
  readonly maintenanceSeconds?: number;
  readonly log?: (line: Record<string, unknown>) => void;
}

/** The least delay before the `attempts`-th retry (pg-boss adds up to as much again in jitter). */
export const backoffDelaySeconds = (attempts: number, base = DEFAULT_BACKOFF_SECONDS) => base * 2 ** Math.max(0, attempts - 1);

export interface RunningWorker {
  /** Looks for work now instead of at the next poll. */
  readonly wake: () => void;
  /** Resolves when no job is ready or running (for tests and benchmarks). */
  readonly idle: () => Promise<void>;
  /** Stops fetching, and resolves when the running jobs have finished. */
  readonly stop: () => Promise<void>;
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs jobs until stopped, with pg-boss's workers (`concurrency` per queue, each fetching with
 * `FOR UPDATE SKIP LOCKED`) and its maintenance (jobs of a dead worker expire and are retried).
 * A handler that throws fails the attempt: pg-boss retries it with backoff, or fails the job
 * after its last attempt, keeping the error as the job's output.
 */
export const startWorker = (options: WorkerOptions): RunningWorker => {
  const { db, handlers } = options;
  const names = Object.keys(handlers);
  const log = options.log ?? (() => undefined);
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const connection = pgBossDb(db);
  const boss = new PgBoss(
    bossOptions(connection, {
      supervise: true,
      maintenanceIntervalSeconds: options.maintenanceSeconds ?? 15,
    }),
  );
  boss.on("error", (error) => log({ level: "error", msg: "job queue error", error: String(error?.message ?? error).slice(0, 500) }));
  const workerIds: string[] = [];
  let running = 0;
  let stopping = false;
  const wake = () => {
    for (const id of workerIds) boss.notifyWorker(id);
  };

  const handle = async (name: string, job: PgBoss.JobWithMetadata<Record<string, unknown>>) => {
    const handler = handlers[name]!;
    const row: JobRow = { id: job.id, name, payload: job.data ?? {}, attempts: job.retryCount + 1, max_attempts: job.retryLimit + 1 };
    const started = Date.now();
    running++;
    // The heartbeat: while the handler runs, its job never expires; once this process dies, it does.
    const beat = setInterval(() => {
      sql`update ${sql.table(`${PG_BOSS_SCHEMA}.job`)} set expire_in = (now() - started_on) + make_interval(secs => ${DEFAULT_EXPIRE_SECONDS})
          where name = ${name} and id = ${job.id}::uuid and state = 'active'`
        .execute(db)
        .catch((error) => log({ level: "warn", msg: "job heartbeat failed", job: job.id, error: errorMessage(error).slice(0, 200) }));
    }, HEARTBEAT_SECONDS * 1000);
    try {
      await handler(row.payload, row);
      log({ level: "info", msg: "job done", job: row.id, name, attempt: row.attempts, ms: Date.now() - started });
      // The error of the attempt before, if any, stays in the job's output beside the success.
      const before = (job.output as { message?: unknown } | null)?.message;
      return job.retryCount > 0 && typeof before === "string" ? { retriedAfter: before } : undefined;
    } catch (error) {
      log({ level: "warn", msg: "job failed", job: row.id, name, attempt: row.attempts, error: errorMessage(error).slice(0, 500) });
      if (options.backoffSeconds !== undefined) {
        const delay = Math.max(0, Math.round(options.backoffSeconds));
        await sql`update ${sql.table(`${PG_BOSS_SCHEMA}.job`)} set retry_delay = ${delay}, retry_backoff = ${delay > 0}
                  where name = ${name} and id = ${job.id}::uuid`.execute(db);
      }
      // pg-boss keeps what it serializes of the error as the job's output: a plain Error keeps the message
      // (an Effect FiberFailure would serialize to its cause alone).
      const failure = new Error(errorMessage(error).slice(0, 2000));
      if (error instanceof Error && error.stack) failure.stack = error.stack.slice(0, 4000);
      throw failure;
    } finally {
      clearInterval(beat);
      running--;
      // Straight on to the next job rather than after a poll interval.
      if (!stopping) wake();
    }
  };

  const started = (async () => {
    await prepareJobQueue(db, names);
    await boss.start();
    // Jobs left active by a worker that died expire now rather than at the first maintenance.
    await boss.maintain();
    for (const name of names) {
      for (let i = 0; i < concurrency; i++) {
        const id = await boss.work<Record<string, unknown>>(
          name,
          { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: Math.max(500, options.pollMs ?? 500) / 1000 },
          async ([job]) => (job ? handle(name, job) : undefined),
        );
        workerIds.push(id);
      }
    }
  })();
  started.catch((error) => log({ level: "error", msg: "job worker failed to start", error: errorMessage(error).slice(0, 500) }));

  const busy = async () => {
    if (names.length === 0) return 0;
    const r = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(`${PG_BOSS_SCHEMA}.job`)}
      where name in (${sql.join(names)}) and (state = 'active' or (state in ('created', 'retry') and start_after <= now()))`.execute(db);
    return Number(r.rows[0]?.n ?? 0);
  };
  const quiet = async () => {
    // pg-boss completes or fails a job after its handler returns, without waiting: wait for those statements too.
    for (;;) {
      await connection.settled();
      await new Promise((r) => setTimeout(r, 20));
      if (running === 0 && connection.pending() === 0) return;
    }
  };

  return {
    wake,
    idle: async () => {
      await started;
      for (;;) {
        await connection.settled();
        if (running === 0 && (await busy()) === 0) return;
        wake();
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: async () => {
      stopping = true;
      await started.catch(() => undefined);
      await boss.stop({ graceful: true, wait: true, close: false, timeout: 60_000 });
      await quiet();
    },
  };
};

/** The states of each keyed job of a queue not yet archived (created, retry, active, completed, failed...). */
export const jobStatesByKey = async (db: Kysely<Database>, name: string): Promise<Map<string, string[]>> => {
  const rows = await sql<{ key: string; state: string }>`
    select singleton_key as key, state::text as state from ${sql.table(`${PG_BOSS_SCHEMA}.job`)}
    where name = ${name} and singleton_key is not null`.execute(db);
  const out = new Map<string, string[]>();
  for (const r of rows.rows) out.set(r.key, [...(out.get(r.key) ?? []), r.state]);
  return out;
};

/** A job as the tests and operators look at it (pg-boss's `job` table). */
export interface JobRecord {
  readonly id: string;
  readonly name: string;
  readonly payload: Record<string, unknown>;
  /** created, retry, active, completed, cancelled or failed. */
  readonly state: string;
  readonly attempts: number;
  readonly max_attempts: number;
  readonly key: string | null;
  /** The error of the last failed attempt, if any. */
  readonly last_error: string | null;
}

/** The jobs not yet archived, oldest first (optionally of one queue). */
export const listJobs = async (db: Kysely<Database>, name?: string): Promise<JobRecord[]> => {
  const rows = await sql<JobRecord>`
    select id::text as id, name, coalesce(data, '{}'::jsonb) as payload, state::text as state,
      case when started_on is null then 0 else retry_count + 1 end as attempts,
      retry_limit + 1 as max_attempts, singleton_key as key,
      coalesce(output->>'message', output->'value'->>'message', output->>'retriedAfter') as last_error
    from ${sql.table(`${PG_BOSS_SCHEMA}.job`)}
    ${name === undefined ? sql`` : sql`where name = ${name}`}
    order by created_on, id`.execute(db);
  return rows.rows.map((r) => ({ ...r, payload: typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload }));
};
