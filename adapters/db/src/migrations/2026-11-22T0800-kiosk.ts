import { type Kysely, sql } from "kysely";

/**
 * Kiosk devices (pairing code and device credential stored as digests), staff PINs (hashed) and
 * kiosk sessions (a staff member on a device, acting for the device's physician).
 * Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("kiosk_devices")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("physician_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("pairing_digest", "text", (c) => c.unique())
    .addColumn("pairing_expires_at", "timestamptz")
    .addColumn("credential_digest", "text", (c) => c.unique())
    .addColumn("paired_at", "timestamptz")
    .addColumn("last_seen_at", "timestamptz")
    .addColumn("revoked_at", "timestamptz")
    .addColumn("revoked_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .execute();
  await db.schema.createIndex("kiosk_devices_physician_idx").on("kiosk_devices").columns(["physician_id", "created_at"]).execute();

  await db.schema
    .createTable("kiosk_pins")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("pin_hash", "text", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("kiosk_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("device_id", "text", (c) => c.notNull().references("kiosk_devices.id").onDelete("cascade"))
    .addColumn("staff_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("physician_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_digest", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_seen_at", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("ended_at", "timestamptz")
    .execute();
  await sql`create index kiosk_sessions_live_idx on kiosk_sessions (device_id) where ended_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("kiosk_sessions").execute();
  await db.schema.dropTable("kiosk_pins").execute();
  await db.schema.dropTable("kiosk_devices").execute();
}
