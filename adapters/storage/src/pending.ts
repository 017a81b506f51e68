import { randomUUID } from "node:crypto";
import { PendingBlobs, type PendingBlobsPort } from "@crown/core/shared/pending-blobs";
import { type Database, executor } from "@crown/db";
import { Effect, Layer } from "effect";
import { type Kysely, sql } from "kysely";

/**
 * Pending blobs and process leases (ADR 0051), in the application's database so that every process
 * and every store (local files, S3) shares them: a blob is held pending under its writer's lease
 * before its first byte, kept by the transaction that names it, and removed by a sweep once its
 * writer's lease lapsed — a process that died mid-upload or mid-publish leaves nothing behind.
 */

/** A lease not renewed for this long is lapsed: its process is taken for dead (s). */
export const LEASE_SECONDS = 45;
/** Renewed four times per lease period: one slow renewal never lapses a live process. */
const renewMs = (leaseSeconds: number) => Math.max(250, (leaseSeconds * 1000) / 4);

export interface ProcessLease {
  readonly id: string;
  /** Ends the lease (a clean stop): its pending blobs, if any, become the sweep's at once. */
  readonly stop: () => Promise<void>;
}

/** Takes a lease for this process and renews it until stopped. Times are the database's clock, never ours. */
export const startProcessLease = async (db: Kysely<Database>, leaseSeconds = LEASE_SECONDS, log: (line: Record<string, unknown>) => void = () => undefined): Promise<ProcessLease> => {
  const id = randomUUID();
  // An upsert: a lease the sweep deleted while this process stalled comes back with the next renewal.
  const renew = () => sql`insert into process_leases (id) values (${id}) on conflict (id) do update set renewed_at = now()`.execute(db);
  await renew();
  let renewing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = renew().catch((error) => log({ level: "warn", msg: "lease renewal failed", error: String((error as Error)?.message ?? error).slice(0, 200) }));
  }, renewMs(leaseSeconds));
  // The lease never keeps a finished CLI command alive; a process that exits without stop() lets it lapse.
  timer.unref();
  return {
    id,
    stop: async () => {
      clearInterval(timer);
      await renewing;
      await sql`delete from process_leases where id = ${id}`.execute(db);
    },
  };
};

const keyList = (keys: ReadonlyArray<string>) => sql.join([...new Set(keys)]);

/** The ledger of one process's pending blobs. */
export const makePendingBlobs = (db: Kysely<Database>, leaseId: string): PendingBlobsPort => ({
  // On the root database, never a transaction: the mark must outlive a crash before any commit.
  hold: (key) =>
    Effect.promise(() =>
      sql`insert into pending_blobs (blob_key, lease_id) values (${key}, ${leaseId})
          on conflict (blob_key) do update set lease_id = excluded.lease_id, created_at = now()`.execute(db),
    ).pipe(Effect.asVoid),
  keep: (keys) =>
    Effect.flatMap(executor(db), (ex) =>
      Effect.promise(async () => {
        const unique = new Set(keys);
        // Row locks: a sweep claiming one of these waits for this transaction, and finds it gone.
        const kept = await sql<{ blob_key: string }>`delete from pending_blobs where lease_id = ${leaseId} and blob_key in (${keyList(keys)}) returning blob_key`.execute(ex);
        if (kept.rows.length !== unique.size) throw new Error("a pending blob was swept before its transaction named it (this process's lease had lapsed)");
      }),
    ),
  // In the caller's transaction: the blobs become pending exactly when the change that drops them commits.
  retire: (keys) =>
    keys.length === 0
      ? Effect.void
      : Effect.flatMap(executor(db), (ex) =>
          Effect.promise(() =>
            sql`insert into pending_blobs (blob_key, lease_id) values ${sql.join([...new Set(keys)].map((key) => sql`(${key}, ${leaseId})`))}
                on conflict (blob_key) do update set lease_id = excluded.lease_id, created_at = now()`.execute(ex),
          ),
        ).pipe(Effect.asVoid),
  release: (keys) =>
    keys.length === 0 ? Effect.void : Effect.promise(() => sql`delete from pending_blobs where blob_key in (${keyList(keys)})`.execute(db)).pipe(Effect.asVoid),
});

/** The ledger for the composition: the lease is taken when the layer is built and ended when it is released. */
export const pendingBlobsLayer = (db: Kysely<Database>, leaseSeconds = LEASE_SECONDS, log?: (line: Record<string, unknown>) => void) =>
  Layer.scoped(
    PendingBlobs,
    Effect.map(
      Effect.acquireRelease(
        Effect.promise(() => startProcessLease(db, leaseSeconds, log)),
        (lease) => Effect.promise(() => lease.stop()),
      ),
      (lease) => makePendingBlobs(db, lease.id),
    ),
  );

const SWEEP_BATCH = 100;

/**
 * Removes the pending blobs whose lease lapsed (or ended) `leaseSeconds` ago, through `remove` (the
 * blob store's own, so local files and S3 alike), and forgets them. Each batch is claimed with row
 * locks and forgotten only after its blobs are gone: a sweeper that dies leaves them to the next.
 * Leases lapsed with nothing pending are deleted too. Returns how many blobs were removed.
 */
export const sweepPendingBlobs = async (db: Kysely<Database>, remove: (key: string) => Promise<void>, leaseSeconds = LEASE_SECONDS): Promise<number> => {
  let removed = 0;
  for (;;) {
    const batch = await db.transaction().execute(async (tx) => {
      const lapsed = await sql<{ blob_key: string }>`
        select p.blob_key from pending_blobs p
        where not exists (select 1 from process_leases l where l.id = p.lease_id and l.renewed_at > now() - make_interval(secs => ${leaseSeconds}))
        order by p.created_at limit ${SWEEP_BATCH} for update of p skip locked`.execute(tx);
      const keys = lapsed.rows.map((r) => r.blob_key);
      for (const key of keys) await remove(key);
      if (keys.length > 0) await sql`delete from pending_blobs where blob_key in (${keyList(keys)})`.execute(tx);
      return keys.length;
    });
    removed += batch;
    if (batch < SWEEP_BATCH) break;
  }
  await sql`delete from process_leases l where l.renewed_at < now() - make_interval(secs => ${leaseSeconds})
            and not exists (select 1 from pending_blobs p where p.lease_id = l.id)`.execute(db);
  return removed;
};
