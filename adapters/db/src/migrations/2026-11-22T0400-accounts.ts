import { type Kysely, sql } from "kysely";

/**
 * Accounts: users, sessions, one-time tokens, the audit log and rate-limit buckets.
 * Frozen in time: this file imports nothing from the app, so later changes to the code never
 * change what an old migration does. Never edit it once shipped; add a new migration instead.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique().check(sql`email = lower(email)`))
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) =>
      c.notNull().check(sql`type in ('parent', 'physician', 'physician_staff', 'other', 'reviewer', 'admin')`),
    )
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('EmailVerificationRequired', 'AdditionalInformationRequired', 'WaitingApproval', 'Active', 'Blocked')`),
    )
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn("phone", "text")
    .addColumn("fax_number", "text")
    .addColumn("email_verified_at", "timestamptz")
    .addColumn("password_changed_at", "timestamptz", (c) => c.notNull())
    .addColumn("photo_key", "text")
    .addColumn("photo_type", "text")
    .addColumn("disclaimer_accepted_at", "timestamptz")
    .addColumn("baa_signed_at", "timestamptz")
    .addColumn("quiz_passed_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("users_status_idx").on("users").columns(["status", "created_at"]).execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_digest", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_seen_at", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("idle_timeout_seconds", "integer", (c) => c.check(sql`idle_timeout_seconds > 0`))
    .addColumn("revoked_at", "timestamptz")
    .addColumn("device_type", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("one_time_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull().check(sql`purpose in ('email_verification', 'password_reset', 'invitation')`))
    .addColumn("digest", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("consumed_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("one_time_tokens_user_idx").on("one_time_tokens").columns(["user_id", "purpose"]).execute();

  // No foreign keys: the log outlives what it talks about (subjects may be babies, reports...).
  await db.schema
    .createTable("audit_events")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("actor_id", "text")
    .addColumn("subject_id", "text")
    .addColumn("ip", "text")
    .addColumn("details", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema.createIndex("audit_events_subject_idx").on("audit_events").columns(["subject_id", "at"]).execute();
  await db.schema.createIndex("audit_events_actor_idx").on("audit_events").columns(["actor_id", "at"]).execute();
  // Append-only, enforced by the database itself rather than by the code that writes to it.
  await sql`
    create function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_events is append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
    end;
    $$`.execute(db);
  await sql`
    create trigger audit_events_no_update_or_delete before update or delete on audit_events
    for each row execute function audit_events_append_only()`.execute(db);
  await sql`
    create trigger audit_events_no_truncate before truncate on audit_events
    for each statement execute function audit_events_append_only()`.execute(db);

  await db.schema
    .createTable("rate_limit_buckets")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("window_start", "timestamptz", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("rate_limit_buckets").execute();
  await db.schema.dropTable("audit_events").execute();
  await sql`drop function audit_events_append_only()`.execute(db);
  await db.schema.dropTable("one_time_tokens").execute();
  await db.schema.dropTable("sessions").execute();
  await db.schema.dropTable("users").execute();
}
