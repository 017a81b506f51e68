import { hostname } from "node:os";
import { JobQueue, type JobQueuePort } from "@crown/core/report/index";
import { type Database, executor } from "@crown/db";
import { Effect, Layer } from "effect";
import { type Kysely, sql } from "kysely";

/**
 * A durable job queue in the application's own PostgreSQL (or PGlite) database: the `jobs` table
 * of migration 2026-11-22T0600, claimed with `FOR UPDATE SKIP LOCKED` (docs/adr/0005-job-queue.md).
 * `enqueue` runs on the current executor, so a job enqueued inside `Transactor.run` commits or
 * rolls back with the transaction that caused it.
 */

export interface JobRow {
  readonly id: number;
  readonly name: string;
  readonly payload: Record<string, unknown>;
  readonly attempts: number;
  readonly max_attempts: number;
}

export const makeJobQueue = (db: Kysely<Database>): JobQueuePort => ({
  enqueue: (job) =>
    Effect.flatMap(executor(db), (ex) =>
      Effect.promise(() =>
        sql`insert into jobs (name, payload, key, max_attempts)
            values (${job.name}, ${JSON.stringify(job.payload)}::jsonb, ${job.key ?? null}, ${job.maxAttempts ?? 5})
            on conflict (key) where key is not null and state in ('pending', 'running') do nothing`.execute(ex),
      ),
    ).pipe(Effect.asVoid),
});

export const jobQueueLayer = (db: Kysely<Database>) => Layer.succeed(JobQueue, makeJobQueue(db));

export type JobHandler = (payload: Record<string, unknown>, job: JobRow) => Promise<void>;

export interface WorkerOptions {
  readonly db: Kysely<Database>;
  readonly handlers: Readonly<Record<string, JobHandler>>;
  /** How often to look for work when idle (ms). */
  readonly pollMs?: number;
  /** Jobs run at once by this worker. */
  readonly concurrency?: number;
  /** First retry delay (s); doubles with each attempt, capped at an hour. */
  readonly backoffSeconds?: number;
  /** A job running longer than this is taken to have died with its worker, and is retried (s). */
  readonly staleAfterSeconds?: number;
  readonly log?: (line: Record<string, unknown>) => void;
}

export const backoffDelaySeconds = (attempts: number, base = 5) => Math.min(3600, base * 2 ** Math.max(0, attempts - 1));

/** Claims the next ready job, or null. One statement: two workers never claim the same job. */
export const claimJob = async (db: Kysely<Database>, workerId: string): Promise<JobRow | null> => {
  const result = await sql<JobRow>`
    update jobs set state = 'running', locked_at = now(), locked_by = ${workerId}, attempts = attempts + 1
    where id = (
      select id from jobs where state = 'pending' and run_at <= now()
      order by run_at, id for update skip locked limit 1
    )
    returning id, name, payload, attempts, max_attempts`.execute(db);
  const row = result.rows[0];
  if (!row) return null;
  return { ...row, id: Number(row.id), payload: typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload };
};

export const completeJob = (db: Kysely<Database>, id: number) =>
  sql`update jobs set state = 'done', finished_at = now(), locked_at = null where id = ${id}`.execute(db);

/** A failed attempt: retried later with backoff, or marked failed after its last attempt. */
export const failJob = (db: Kysely<Database>, job: JobRow, error: string, backoffSeconds = 5) =>
  job.attempts >= job.max_attempts
    ? sql`update jobs set state = 'failed', finished_at = now(), locked_at = null, last_error = ${error} where id = ${job.id}`.execute(db)
    : sql`update jobs set state = 'pending', locked_at = null, last_error = ${error},
            run_at = now() + make_interval(secs => ${backoffDelaySeconds(job.attempts, backoffSeconds)}) where id = ${job.id}`.execute(db);

/** Jobs whose worker died mid-run go back to the queue (their handlers are idempotent). */
export const releaseStaleJobs = (db: Kysely<Database>, staleAfterSeconds: number) =>
  sql`update jobs set state = 'pending', locked_at = null, last_error = 'the worker stopped while running this job'
      where state = 'running' and locked_at < now() - make_interval(secs => ${staleAfterSeconds})`.execute(db);

export interface RunningWorker {
  /** Looks for work now instead of at the next poll. */
  readonly wake: () => void;
  /** Resolves when no job is ready or running (for tests and benchmarks). */
  readonly idle: () => Promise<void>;
  /** Stops claiming, and resolves when the running jobs have finished. */
  readonly stop: () => Promise<void>;
}

/** Runs jobs until stopped: polls, runs up to `concurrency` at once, retries failures with backoff. */
export const startWorker = (options: WorkerOptions): RunningWorker => {
  const { db, handlers } = options;
  const pollMs = options.pollMs ?? 500;
  const concurrency = options.concurrency ?? 1;
  const workerId = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const log = options.log ?? (() => undefined);
  let stopped = false;
  let running = 0;
  let timer: NodeJS.Timeout | null = null;
  let looking = false;
  const inFlight = new Set<Promise<void>>();
  let lastStaleCheck = 0;

  const runOne = async (job: JobRow) => {
    const handler = handlers[job.name];
    const started = Date.now();
    try {
      if (!handler) throw new Error(`no handler for job "${job.name}"`);
      await handler(job.payload, job);
      await completeJob(db, job.id);
      log({ level: "info", msg: "job done", job: job.id, name: job.name, attempt: job.attempts, ms: Date.now() - started });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log({ level: "warn", msg: "job failed", job: job.id, name: job.name, attempt: job.attempts, error: message.slice(0, 500) });
      await failJob(db, job, message.slice(0, 2000), options.backoffSeconds).catch(() => undefined);
    }
  };

  const look = async () => {
    if (looking || stopped) return;
    looking = true;
    try {
      if (Date.now() - lastStaleCheck > 30_000) {
        lastStaleCheck = Date.now();
        await releaseStaleJobs(db, options.staleAfterSeconds ?? 900);
      }
      while (!stopped && running < concurrency) {
        const job = await claimJob(db, workerId);
        if (!job) break;
        running++;
        const p = runOne(job).finally(() => {
          running--;
          inFlight.delete(p);
          schedule(0);
        });
        inFlight.add(p);
      }
    } catch (error) {
      log({ level: "error", msg: "job queue poll failed", error: String(error).slice(0, 500) });
    } finally {
      looking = false;
      schedule(pollMs);
    }
  };

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void look(), ms);
    timer.unref?.();
  };

  schedule(0);

  const ready = async () => {
    const r = await sql<{ n: number }>`select count(*)::int as n from jobs where (state = 'pending' and run_at <= now()) or state = 'running'`.execute(db);
    return Number(r.rows[0]?.n ?? 0);
  };

  return {
    wake: () => schedule(0),
    idle: async () => {
      for (;;) {
        if (inFlight.size === 0 && (await ready()) === 0) return;
        schedule(0);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
};
