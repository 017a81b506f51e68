import { Transactor } from "@crown/core";
import { JobQueue } from "@crown/core/shared/jobs";
import { createTestDatabase, databaseKinds, type TestDatabase } from "@crown/db/testing";
import { Effect, Layer } from "effect";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { splitStatements } from "./pg-boss-db.ts";
import { HEARTBEAT_SECONDS, jobQueueLayer, listJobs, maintainJobQueue, type JobRow, prepareJobQueue, startWorker } from "./queue.ts";

test("a pg-boss script splits at its top-level semicolons only", () => {
  expect(
    splitStatements(`BEGIN; SELECT ';' AS "a;b"; -- c;
      CREATE FUNCTION f() RETURNS void AS $$ BEGIN PERFORM 1; END; $$ LANGUAGE plpgsql;
      SELECT $1, $tag$ ; $tag$ /* ; */; COMMIT;`),
  ).toEqual([
    "BEGIN",
    `SELECT ';' AS "a;b"`,
    "-- c;\n      CREATE FUNCTION f() RETURNS void AS $$ BEGIN PERFORM 1; END; $$ LANGUAGE plpgsql",
    "SELECT $1, $tag$ ; $tag$ /* ; */",
    "COMMIT",
  ]);
});

describe.each(await databaseKinds())("job queue (pg-boss) on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t?.drop();
  });
  const run = <A>(e: Effect.Effect<A, unknown, JobQueue | Transactor>) => Effect.runPromise(Effect.provide(e, Layer.merge(t.layer, jobQueueLayer(t.db))) as Effect.Effect<A>);
  const jobs = async (name?: string) => (await listJobs(t.db, name)).map((j) => ({ name: j.name, state: j.state, attempts: j.attempts, key: j.key }));

  test("pg-boss's schema is installed in the application's database", async () => {
    await run(Effect.void);
    const version = await sql<{ version: number }>`select version from pgboss.version`.execute(t.db);
    expect(version.rows).toHaveLength(1);
  });

  test("a job enqueued in a transaction commits with it, or not at all; a waiting key is enqueued once", async () => {
    const enqueue = (key: string) => Effect.flatMap(JobQueue, (q) => q.enqueue({ name: "test", payload: { key }, key }));
    await run(Effect.flatMap(Transactor, (tx) => tx.run(Effect.zipRight(enqueue("rolled-back"), Effect.fail("boom"))))).catch(() => undefined);
    await run(Effect.flatMap(Transactor, (tx) => tx.run(enqueue("kept"))));
    await run(enqueue("kept"));
    expect((await jobs("test")).map((j) => j.key)).toEqual(["kept"]);
    // Jobs without a key are never taken for each other.
    await run(Effect.flatMap(JobQueue, (q) => Effect.zipRight(q.enqueue({ name: "test", payload: {} }), q.enqueue({ name: "test", payload: {} }))));
    expect(await jobs("test")).toHaveLength(3);
  });

  test("the worker runs jobs, retries a failure with backoff, and gives up after the last attempt with its error", async () => {
    const seen: string[] = [];
    const attempts: Array<[number, number]> = [];
    let failures = 0;
    await run(Effect.flatMap(JobQueue, (q) => q.enqueue({ name: "ok", payload: { n: 1 } })));
    await run(Effect.flatMap(JobQueue, (q) => q.enqueue({ name: "flaky", payload: {}, maxAttempts: 3 })));
    await run(Effect.flatMap(JobQueue, (q) => q.enqueue({ name: "doomed", payload: {}, maxAttempts: 2 })));
    const worker = startWorker({
      db: t.db,
      pollMs: 20,
      backoffSeconds: 0,
      handlers: {
        ok: async (payload) => void seen.push(`ok:${payload.n}`),
        flaky: async () => {
          failures++;
          if (failures < 3) throw new Error(`attempt ${failures}`);
          seen.push("flaky");
        },
        doomed: async (_payload, job: JobRow) => {
          attempts.push([job.attempts, job.max_attempts]);
          throw new Error(`no luck ${job.attempts}`);
        },
      },
    });
    try {
      await worker.idle();
    } finally {
      await worker.stop();
    }
    expect(seen.sort()).toEqual(["flaky", "ok:1"]);
    expect(attempts).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect((await jobs()).filter((j) => j.name !== "test").map((j) => [j.name, j.state, j.attempts])).toEqual([
      ["ok", "completed", 1],
      ["flaky", "completed", 3],
      ["doomed", "failed", 2],
    ]);
    expect((await listJobs(t.db, "doomed"))[0]?.last_error).toBe("no luck 2");
    expect((await listJobs(t.db, "flaky"))[0]?.last_error).toBe("attempt 2");
  });

  test("the jobs the worker does not handle stay waiting; a retried job waits out its backoff", async () => {
    await run(Effect.flatMap(JobQueue, (q) => q.enqueue({ name: "later", payload: {}, maxAttempts: 2 })));
    const worker = startWorker({
      db: t.db,
      handlers: {
        later: async () => {
          throw new Error("not yet");
        },
      },
    });
    try {
      await worker.idle();
    } finally {
      await worker.stop();
    }
    // 5 s to 10 s before the second attempt.
    const [job] = await listJobs(t.db, "later");
    expect(job).toMatchObject({ state: "retry", attempts: 1, max_attempts: 2, last_error: "not yet" });
    expect((await jobs("test")).every((j) => j.state === "created")).toBe(true);
  });

  test("a running job's worker beats: past its first expiry, maintenance leaves it running (ADR 0029)", async () => {
    await run(Effect.flatMap(JobQueue, (q) => q.enqueue({ name: "long", payload: {}, maxAttempts: 2 })));
    let release = () => undefined as void;
    let started = () => undefined as void;
    const running = new Promise<void>((r) => (started = r));
    const worker = startWorker({
      db: t.db,
      pollMs: 100,
      handlers: {
        long: () =>
          new Promise<void>((resolve) => {
            release = resolve;
            started();
          }),
      },
    });
    try {
      await running;
      // As if its expiry were one second: without a beat, the next maintenance fails it.
      await sql`update pgboss.job set expire_in = interval '1 second' where name = 'long'`.execute(t.db);
      await new Promise((r) => setTimeout(r, (HEARTBEAT_SECONDS + 1) * 1000));
      await maintainJobQueue(t.db);
      expect((await listJobs(t.db, "long"))[0]).toMatchObject({ state: "active", attempts: 1 });
    } finally {
      release();
      await worker.stop();
    }
  }, 30_000);

  test("a job left active by a dead worker is failed by maintenance once it expires, and retried", async () => {
    await run(Effect.flatMap(JobQueue, (q) => q.enqueue({ name: "orphan", payload: {}, maxAttempts: 2 })));
    // A worker takes the job, then dies.
    const [taken] = await (await prepareJobQueue(t.db)).boss.fetch("orphan");
    expect(taken).toBeDefined();
    await maintainJobQueue(t.db);
    expect((await listJobs(t.db, "orphan"))[0]).toMatchObject({ state: "active", attempts: 1 });
    await sql`update pgboss.job set started_on = now() - interval '1 minute' where name = 'orphan'`.execute(t.db);
    await maintainJobQueue(t.db);
    expect((await listJobs(t.db, "orphan"))[0]).toMatchObject({ state: "retry", attempts: 1, last_error: expect.stringContaining("timeout") });
  });
});
