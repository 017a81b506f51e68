import { type Kysely, sql } from "kysely";

/**
 * Onboarding and the practice: babies (patients), staff delegations, notifications, BAA
 * signatures, quiz attempts and kit-offer leads. Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("babies")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("parent_id", "text", (c) => c.references("users.id").onDelete("restrict"))
    .addColumn("physician_id", "text", (c) => c.references("users.id").onDelete("restrict"))
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("middle_name", "text")
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn("date_of_birth", "date", (c) => c.notNull())
    .addColumn("relation", "text", (c) => c.check(sql`relation in ('mother', 'father', 'other')`))
    .addColumn("gender", "text", (c) => c.check(sql`gender in ('male', 'female', 'other')`))
    .addColumn("ethnicity", "text")
    .addColumn("nicu_time", "integer", (c) => c.check(sql`nicu_time between 0 and 16`))
    .addColumn("previous_condition", "text")
    .addColumn("referral_code", "text")
    .addColumn("caregiver_email", "text")
    .addColumn("caregiver_phone", "text")
    .addColumn("created_by", "text", (c) => c.notNull().references("users.id").onDelete("restrict"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("babies_parent_idx").on("babies").columns(["parent_id", "created_at"]).execute();
  await db.schema.createIndex("babies_physician_idx").on("babies").columns(["physician_id", "created_at"]).execute();

  await db.schema
    .createTable("delegations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("physician_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("staff_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("staff_type", "text", (c) => c.notNull().check(sql`staff_type in ('nurse', 'office_admin')`))
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("ended_at", "timestamptz")
    .addColumn("ended_by", "text")
    .execute();
  // At most one live delegation per physician and staff member.
  await sql`create unique index delegations_live_idx on delegations (physician_id, staff_id) where ended_at is null`.execute(db);
  await db.schema.createIndex("delegations_staff_idx").on("delegations").columns(["staff_id", "ended_at"]).execute();

  await db.schema
    .createTable("notifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("subject_id", "text")
    .addColumn("read_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("notifications_user_idx").on("notifications").columns(["user_id", "created_at"]).execute();
  await sql`create index notifications_unread_idx on notifications (user_id) where read_at is null`.execute(db);

  await db.schema
    .createTable("baa_signatures")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("restrict"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("covered_entity", "text", (c) => c.notNull())
    .addColumn("text_version", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("signed_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("baa_signatures_user_idx").on("baa_signatures").columns(["user_id", "signed_at"]).execute();

  await db.schema
    .createTable("quiz_attempts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("mode", "text", (c) => c.notNull().check(sql`mode in ('cap', 'nocap')`))
    .addColumn("score", "integer", (c) => c.notNull().check(sql`score >= 0`))
    .addColumn("total", "integer", (c) => c.notNull().check(sql`total > 0 and total >= score`))
    .addColumn("passed", "boolean", (c) => c.notNull())
    .addColumn("at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("quiz_attempts_user_idx").on("quiz_attempts").columns(["user_id", "at"]).execute();

  await db.schema
    .createTable("marketing_leads")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("parent_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("physician_name", "text")
    .addColumn("baby_name", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("marketing_leads").execute();
  await db.schema.dropTable("quiz_attempts").execute();
  await db.schema.dropTable("baa_signatures").execute();
  await db.schema.dropTable("notifications").execute();
  await db.schema.dropTable("delegations").execute();
  await db.schema.dropTable("babies").execute();
}
