import { type Kysely, sql } from "kysely";

/**
 * Two-step sign-in (issue 44, ADR 146): since when an account has a second factor; its authenticator
 * app's secret (sealed with a key derived from the server secret, never stored plain); its recovery
 * codes (digests only, each spent once); its passkeys; and the WebAuthn challenges, each used once.
 * Frozen in time: imports nothing from the app.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("second_factor_at", "timestamptz").execute();

  await db.schema
    .createTable("totp_factors")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("sealed_secret", "text")
    .addColumn("confirmed_at", "timestamptz")
    .addColumn("last_step", "bigint")
    // A new app waits here until its first code matches; the working one stays meanwhile.
    .addColumn("pending_secret", "text")
    .addColumn("pending_at", "timestamptz")
    .execute();

  await db.schema
    .createTable("recovery_codes")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("digest", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .addPrimaryKeyConstraint("recovery_codes_pkey", ["user_id", "digest"])
    .execute();

  await db.schema
    .createTable("passkeys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("credential_id", "text", (c) => c.notNull().unique())
    .addColumn("public_key", "bytea", (c) => c.notNull())
    .addColumn("counter", "bigint", (c) => c.notNull())
    .addColumn("transports", sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn("device_type", "text", (c) => c.notNull())
    .addColumn("backed_up", "boolean", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("last_used_at", "timestamptz")
    .execute();
  await db.schema.createIndex("passkeys_user_idx").on("passkeys").column("user_id").execute();

  await db.schema
    .createTable("passkey_ceremonies")
    .addColumn("digest", "text", (c) => c.primaryKey())
    .addColumn("purpose", "text", (c) => c.notNull().check(sql`purpose in ('passkey_registration', 'passkey_sign_in', 'passkey_proof')`))
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("consumed_at", "timestamptz")
    .execute();
  await db.schema.createIndex("passkey_ceremonies_expiry_idx").on("passkey_ceremonies").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("passkey_ceremonies").execute();
  await db.schema.dropTable("passkeys").execute();
  await db.schema.dropTable("recovery_codes").execute();
  await db.schema.dropTable("totp_factors").execute();
  await db.schema.alterTable("users").dropColumn("second_factor_at").execute();
}
