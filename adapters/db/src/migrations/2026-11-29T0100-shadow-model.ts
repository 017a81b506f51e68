import { type Kysely, sql } from "kysely";

/**
 * The shadow model (issue 41, item 5; ADR 0159): every model an admin installed (its version, checksum
 * and where its bytes are kept) with its role now, and the shadow's answer for each photo, kept apart
 * from `measurements` so nothing of it reaches a report, an Observation or a PDF. The roles live
 * here, not in a process: every worker reads which model measures from this table.
 * Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("installed_models")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("version", "text", (c) => c.notNull())
    // Null for the release's own model (CROWN_MODEL), recorded when a candidate first replaces it.
    .addColumn("sha256", "text")
    .addColumn("blob_key", "text")
    .addColumn("size", "integer")
    .addColumn("card", "jsonb")
    .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('shipped', 'shadow', 'previous', 'retired')`))
    .addColumn("installed_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("installed_at", "timestamptz", (c) => c.notNull())
    .addColumn("role_since", "timestamptz", (c) => c.notNull())
    .execute();
  // One model at most in each live role: promotion and rollback swap them in one transaction.
  await sql`create unique index installed_models_one_per_role on installed_models (role) where role in ('shipped', 'shadow', 'previous')`.execute(db);
  await db.schema
    .createTable("shadow_measurements")
    .addColumn("attachment_id", "text", (c) => c.notNull().references("attachments.id").onDelete("cascade"))
    .addColumn("model_id", "text", (c) => c.notNull().references("installed_models.id"))
    .addColumn("report_id", "text", (c) => c.notNull().references("reports.id").onDelete("cascade"))
    .addColumn("round", "integer", (c) => c.notNull())
    .addColumn("verdict", "text", (c) => c.notNull())
    .addColumn("reasons", "jsonb", (c) => c.notNull())
    .addColumn("ci", "double precision")
    .addColumn("cvai", "double precision")
    .addColumn("cva_mm", "double precision")
    .addColumn("outline", "jsonb")
    .addColumn("nose_tip", "jsonb")
    .addColumn("error", "text")
    // The shadow's own measurement time for this photo (decode and model), off the report's critical path.
    .addColumn("ms", "double precision", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("shadow_measurements_pk", ["attachment_id", "model_id"])
    .execute();
  await db.schema.createIndex("shadow_measurements_report").on("shadow_measurements").column("report_id").execute();
  await db.schema.createIndex("shadow_measurements_model").on("shadow_measurements").column("model_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("shadow_measurements").execute();
  await db.schema.dropTable("installed_models").execute();
}
