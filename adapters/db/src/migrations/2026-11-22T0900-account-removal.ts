import { type Kysely, sql } from "kysely";

/**
 * Account removal requests: one per user, kept for Crown's administrators (admin console).
 * Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("account_removal_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().unique().references("users.id").onDelete("cascade"))
    .addColumn("reason", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("account_removal_requests_created_idx").on("account_removal_requests").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("account_removal_requests").execute();
}
