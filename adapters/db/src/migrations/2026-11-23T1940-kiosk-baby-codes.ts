import { type Kysely, sql } from "kysely";

/**
 * A parent's short code for the clinic's kiosk (issue 22, item 7): stored as a digest, single-use,
 * expiring. Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("kiosk_baby_codes")
    .addColumn("digest", "text", (c) => c.primaryKey())
    .addColumn("baby_id", "text", (c) => c.notNull().references("babies.id").onDelete("cascade"))
    .addColumn("issued_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("kiosk_baby_codes_baby_idx").on("kiosk_baby_codes").column("baby_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("kiosk_baby_codes").execute();
}
