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
});

export const makeRemovalRequests = (db: Kysely<Database>): RemovalRequestsPort => ({
  // A second request of the same user (two tabs at once) is a no-op: the first one stands.
  insert: (r) =>
    run(db, (ex) =>
      ex
        .insertInto("account_removal_requests")
        .values({ id: r.id, user_id: r.userId, reason: r.reason, created_at: r.createdAt })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .execute(),
    ).pipe(Effect.asVoid),
  findByUser: (userId) =>
    run(db, (ex) => ex.selectFrom("account_removal_requests").selectAll().where("user_id", "=", userId).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), fromRow)),
    ),
  list: () =>
    run(db, (ex) => ex.selectFrom("account_removal_requests").selectAll().orderBy("created_at", "desc").orderBy("id").execute()).pipe(
      Effect.map((rows) => rows.map(fromRow)),
    ),
});

export const makeRemovalLayer = (db: Kysely<Database>) => Layer.succeed(RemovalRequests, makeRemovalRequests(db));
