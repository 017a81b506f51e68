import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BlobStorePort } from "@crown/core";
import { inTransaction } from "@crown/db";
import { createTestDatabase, databaseKinds, type TestDatabase } from "@crown/db/testing";
import { Effect, Exit, Option } from "effect";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { makeLocalBlobStore } from "./local.ts";
import { makePendingBlobs, startProcessLease, sweepPendingBlobs } from "./pending.ts";
import { ensureBucket, makeS3BlobStore, makeS3Client } from "./s3.ts";
import { startS3rver } from "./s3rver.ts";
import { s3SettingsFromEnv } from "./storage.ts";

/**
 * The pending-blob ledger (ADR 0051) on each database and each store: a blob its writer held and
 * never named is removed once the writer's lease lapses, never while it is renewed, never once a
 * transaction kept it. A real MinIO too when S3_ENDPOINT is set.
 */

type Store = { readonly name: string; readonly store: BlobStorePort; readonly stop: () => Promise<void> };

const stores: Array<[string, () => Promise<Store>]> = [
  [
    "local files",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "crown-pending-"));
      return { name: "local", store: makeLocalBlobStore(dir), stop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  [
    "S3 (s3rver)",
    async () => {
      const server = await startS3rver();
      const client = makeS3Client({ ...server, bucket: "crown-pending" });
      await ensureBucket(client, "crown-pending");
      return { name: "s3rver", store: makeS3BlobStore(client, "crown-pending"), stop: server.stop };
    },
  ],
];
const minio = s3SettingsFromEnv();
if (minio) {
  stores.push([
    `S3 (${minio.endpoint})`,
    async () => {
      const client = makeS3Client(minio);
      await ensureBucket(client, minio.bucket, minio.region ?? "us-east-1");
      return { name: "minio", store: makeS3BlobStore(client, minio.bucket), stop: async () => undefined };
    },
  ]);
}

const cases = (await databaseKinds()).flatMap((kind) => stores.map(([name, make]) => [kind, name, make] as const));

describe.each(cases)("pending blobs on %s with %s", (kind, _name, make) => {
  let t: TestDatabase;
  let s: Store;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    s = await make();
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
    await t?.drop();
  });

  const unique = () => `attachments/${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}.jpg`;
  const put = (key: string) => Effect.runPromise(s.store.put(key, new TextEncoder().encode(key), "image/jpeg"));
  const exists = async (key: string) => Option.isSome(await Effect.runPromise(s.store.get(key)));
  const sweep = (leaseSeconds: number) => sweepPendingBlobs(t.db, (key) => Effect.runPromise(s.store.remove(key)), leaseSeconds);
  /** A process that died: its lease was last renewed `secondsAgo` ago and never will be again. */
  const deadLease = async (secondsAgo: number) => {
    const id = `dead-${Math.random().toString(36).slice(2)}`;
    await sql`insert into process_leases (id, renewed_at) values (${id}, now() - make_interval(secs => ${secondsAgo}))`.execute(t.db);
    return makePendingBlobs(t.db, id);
  };

  test("a dead writer's held blob is removed once its lease lapsed, not before; a kept one stays", async () => {
    const dead = await deadLease(5);
    const [orphan, named] = [unique(), unique()];
    for (const key of [orphan, named]) {
      await Effect.runPromise(dead.hold(key));
      await put(key);
    }
    // Named (kept) before the writer died: no longer pending.
    await Effect.runPromise(dead.keep([named]));
    expect(await sweep(60)).toBe(0);
    expect(await exists(orphan)).toBe(true);
    expect(await sweep(2)).toBe(1);
    expect(await exists(orphan)).toBe(false);
    expect(await exists(named)).toBe(true);
    expect((await sql`select 1 from pending_blobs where blob_key = ${orphan}`.execute(t.db)).rows).toEqual([]);
  });

  test("a renewed lease keeps its blobs however long the write takes; once stopped they go", async () => {
    const lease = await startProcessLease(t.db, 2);
    const ledger = makePendingBlobs(t.db, lease.id);
    const key = unique();
    await Effect.runPromise(ledger.hold(key));
    await put(key);
    await new Promise((r) => setTimeout(r, 3000));
    expect(await sweep(2)).toBe(0);
    expect(await exists(key)).toBe(true);
    await lease.stop();
    expect(await sweep(2)).toBe(1);
    expect(await exists(key)).toBe(false);
  });

  test("keeping a blob the sweep already took fails, so the transaction naming it rolls back", async () => {
    const dead = await deadLease(10);
    const key = unique();
    await Effect.runPromise(dead.hold(key));
    await put(key);
    expect(await sweep(5)).toBe(1);
    const kept = await Effect.runPromiseExit(dead.keep([key]));
    expect(Exit.isFailure(kept)).toBe(true);
  });

  test("keep and release forget exactly their keys", async () => {
    const lease = await startProcessLease(t.db, 30);
    const ledger = makePendingBlobs(t.db, lease.id);
    const [a, b, c] = [unique(), unique(), unique()];
    for (const key of [a, b, c]) await Effect.runPromise(ledger.hold(key));
    await Effect.runPromise(ledger.keep([a, a]));
    await Effect.runPromise(ledger.release([b]));
    const left = await sql<{ blob_key: string }>`select blob_key from pending_blobs where lease_id = ${lease.id}`.execute(t.db);
    expect(left.rows.map((r) => r.blob_key)).toEqual([c]);
    await Effect.runPromise(ledger.release([c]));
    await lease.stop();
  });

  test("a blob retired in a transaction is pending only once it commits; a dead retirer's goes to the sweep", async () => {
    const dead = await deadLease(10);
    const [kept, dropped] = [unique(), unique()];
    for (const key of [kept, dropped]) await put(key);
    // Rolled back (the change that dropped the blob failed): still named, not pending.
    const failed = await Effect.runPromiseExit(inTransaction(t.db)(Effect.zipRight(dead.retire([kept]), Effect.fail("refused"))));
    expect(Exit.isFailure(failed)).toBe(true);
    // Committed, then the process died before removing it: the sweep finishes the job.
    await Effect.runPromise(inTransaction(t.db)(dead.retire([dropped, dropped])));
    expect(await sweep(5)).toBe(1);
    expect(await exists(dropped)).toBe(false);
    expect(await exists(kept)).toBe(true);
  });
});
