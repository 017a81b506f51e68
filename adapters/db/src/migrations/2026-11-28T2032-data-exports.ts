import { type Kysely, sql } from "kysely";

/**
 * A parent's archive of everything Crown holds about them and their children (issue 44): prepared
 * by a background job, its progress shown, its link e-mailed; the link works once, for 24 hours.
 * Frozen in time: imports nothing from the app.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("data_exports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("items_done", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("items_total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("blob_key", "text")
    .addColumn("size", "bigint")
    .addColumn("link_digest", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("ready_at", "timestamptz")
    .addColumn("expires_at", "timestamptz")
    .addColumn("downloaded_at", "timestamptz")
    .execute();
  await db.schema.createIndex("data_exports_user_idx").on("data_exports").columns(["user_id", "created_at"]).execute();
  await sql`create index data_exports_expiring_idx on data_exports (expires_at) where blob_key is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("data_exports").execute();
}
