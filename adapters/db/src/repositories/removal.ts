import { type RemovalRequest, RemovalRequests, type RemovalRequestsPort } from "@crown/core/accounts/removal";
import { Effect, Layer, Option } from "effect";
import { type Kysely, type Selectable } from "kysely";
import { run } from "../executor.ts";
import type { AccountRemovalRequestsTable, Database } from "../schema.ts";

/* Account removal requests (migration 2026-11-22T0900); the table is in schema.ts. */

const fromRow = (row: Selectable<AccountRemovalRequestsTable>): RemovalRequest => ({
  id: row.id,
  userId: row.user_id,
  reason: row.reason,
  createdAt: row.created_at,
  eraseAfter: row.erase_after,
  heldAt: row.held_at,
  heldBy: row.held_by,
  holdReason: row.hold_reason,
});

export const makeRemovalRequests = (db: Kysely<Database>): RemovalRequestsPort => ({
  // A second request of the same user (two tabs at once) is a no-op: the first one stands.
  insert: (r) =>
    run(db, (ex) =>
      ex
        .insertInto("account_removal_requests")
        .values({
          id: r.id,
          user_id: r.userId,
          reason: r.reason,
          created_at: r.createdAt,
          erase_after: r.eraseAfter,
          held_at: r.heldAt,
          held_by: r.heldBy,
          hold_reason: r.holdReason,
        })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .execute(),
    ).pipe(Effect.asVoid),
  findByUser: (userId) =>
    run(db, (ex) => ex.selectFrom("account_removal_requests").selectAll().where("user_id", "=", userId).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), fromRow)),
    ),
  findById: (id) =>
    run(db, (ex) => ex.selectFrom("account_removal_requests").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), fromRow)),
    ),
  cancel: (userId) =>
    run(db, (ex) => ex.deleteFrom("account_removal_requests").where("user_id", "=", userId).returningAll().executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), fromRow)),
    ),
  setHold: (id, hold) =>
    run(db, (ex) =>
      ex
        .updateTable("account_removal_requests")
        .set(hold === null ? { held_at: null, held_by: null, hold_reason: null } : { held_at: hold.at, held_by: hold.by, hold_reason: hold.reason })
        .where("id", "=", id)
        .execute(),
    ).pipe(Effect.asVoid),
  // Served by the partial index on erase_after (migration 2026-11-28T2033); core checks the account's type.
  due: (at, limit) =>
    run(db, (ex) =>
      ex.selectFrom("account_removal_requests").selectAll().where("held_at", "is", null).where("erase_after", "<=", at).orderBy("erase_after").orderBy("id").limit(limit).execute(),
    ).pipe(Effect.map((rows) => rows.map(fromRow))),
  list: () =>
    run(db, (ex) => ex.selectFrom("account_removal_requests").selectAll().orderBy("created_at", "desc").orderBy("id").execute()).pipe(
      Effect.map((rows) => rows.map(fromRow)),
    ),
});

export const makeRemovalLayer = (db: Kysely<Database>) => Layer.succeed(RemovalRequests, makeRemovalRequests(db));
