import { Transactor } from "@crown/core";
import { JobQueue } from "@crown/core/report/index";
import { createTestDatabase, databaseKinds, type TestDatabase } from "@crown/db/testing";
import { Effect, Layer } from "effect";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { claimJob, failJob, jobQueueLayer, startWorker } from "./queue.ts";

describe.each(await databaseKinds())("job queue on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await t?.drop();
  });
  const run = <A>(e: Effect.Effect<A, unknown, JobQueue | Transactor>) => Effect.runPromise(Effect.provide(e, Layer.merge(t.layer, jobQueueLayer(t.db))) as Effect.Effect<A>);
  const jobs = async () => (await sql<{ name: string; state: string; attempts: number; key: string | null }>`select name, state, attempts, key from jobs order by id`.execute(t.db)).rows;

  test("a job enqueued in a transaction commits with it, or not at all; a live key is enqueued once", async () => {
    const enqueue = (key: string) => Effect.flatMap(JobQueue, (q) => q.enqueue({ name: "test", payload: { key }, key }));
    await run(Effect.flatMap(Transactor, (tx) => tx.run(Effect.zipRight(enqueue("rolled-back"), Effect.fail("boom"))))).catch(() => undefined);
    await run(Effect.flatMap(Transactor, (tx) => tx.run(enqueue("kept"))));
    await run(enqueue("kept"));
    expect((await jobs()).map((j) => j.key)).toEqual(["kept"]);
  });

  test("the worker runs jobs, retries a failure with backoff, and gives up after the last attempt", async () => {
    await sql`delete from jobs`.execute(t.db);
    const seen: string[] = [];
    let failures = 0;
    await run(Effect.flatMap(JobQueue, (q) => q.enqueue({ name: "ok", payload: { n: 1 } })));
    await run(Effect.flatMap(JobQueue, (q) => q.enqueue({ name: "flaky", payload: {}, maxAttempts: 3 })));
    const worker = startWorker({
      db: t.db,
      pollMs: 20,
      backoffSeconds: 0.05,
      handlers: {
        ok: async (payload) => void seen.push(`ok:${payload.n}`),
        flaky: async () => {
          failures++;
          if (failures < 3) throw new Error(`attempt ${failures}`);
          seen.push("flaky");
        },
      },
    });
    for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    await worker.stop();
    expect(seen.sort()).toEqual(["flaky", "ok:1"]);
    expect((await jobs()).map((j) => [j.name, j.state, j.attempts])).toEqual([
      ["ok", "done", 1],
      ["flaky", "done", 3],
    ]);
    await run(Effect.flatMap(JobQueue, (q) => q.enqueue({ name: "doomed", payload: {}, maxAttempts: 1 })));
    const job = await claimJob(t.db, "test");
    expect(job?.name).toBe("doomed");
    expect(await claimJob(t.db, "other")).toBeNull();
    await failJob(t.db, job!, "no luck");
    expect((await jobs()).at(-1)).toMatchObject({ name: "doomed", state: "failed", attempts: 1 });
  });
});
