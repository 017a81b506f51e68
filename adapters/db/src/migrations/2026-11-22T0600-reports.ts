import { type Kysely, sql } from "kysely";

/**
 * Reports: reports, attachments, measurements, review actions, published versions, read flags,
 * and the job queue the analysis runs on. Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("reports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("baby_id", "text", (c) => c.notNull().references("babies.id").onDelete("restrict"))
    .addColumn("baby_name", "text", (c) => c.notNull())
    .addColumn("uploader_id", "text", (c) => c.notNull().references("users.id").onDelete("restrict"))
    .addColumn("physician_id", "text", (c) => c.references("users.id").onDelete("restrict"))
    .addColumn("analysis_type", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('draft', 'uploading', 'submitted', 'analyzing', 'analyzed', 'in_review', 'published', 'recapture_requested')`),
    )
    .addColumn("round", "integer", (c) => c.notNull().defaultTo(1).check(sql`round >= 1`))
    .addColumn("submitted_at", "timestamptz")
    .addColumn("analyzed_at", "timestamptz")
    .addColumn("published_at", "timestamptz")
    .addColumn("reviewer_id", "text", (c) => c.references("users.id").onDelete("restrict"))
    .addColumn("review_note", "text")
    .addColumn("recapture_reasons", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("analysis", "jsonb")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    // The database holds the rule too: no report is published without its reviewer.
    .addCheckConstraint("reports_published_has_reviewer", sql`status <> 'published' or (reviewer_id is not null and version > 0)`)
    .execute();
  await db.schema.createIndex("reports_baby_idx").on("reports").columns(["baby_id", "created_at"]).execute();
  await db.schema.createIndex("reports_physician_idx").on("reports").columns(["physician_id", "status", "published_at"]).execute();
  await db.schema.createIndex("reports_status_idx").on("reports").columns(["status", "submitted_at"]).execute();

  await db.schema
    .createTable("attachments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("report_id", "text", (c) => c.notNull().references("reports.id").onDelete("cascade"))
    .addColumn("round", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('image', 'video', 'frame')`))
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("extension", "text", (c) => c.notNull())
    .addColumn("mime", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("sha256", "text", (c) => c.notNull())
    // A blob key is written once: two attachments never share one.
    .addColumn("blob_key", "text", (c) => c.notNull().unique())
    .addColumn("source_id", "text", (c) => c.references("attachments.id").onDelete("cascade"))
    .addColumn("frame_time", "double precision")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("attachments_report_idx").on("attachments").columns(["report_id", "created_at"]).execute();
  // The same bytes are never counted twice in a round (frames are the server's own).
  await sql`create unique index attachments_round_sha_idx on attachments (report_id, round, sha256) where kind <> 'frame'`.execute(db);

  await db.schema
    .createTable("measurements")
    .addColumn("attachment_id", "text", (c) => c.primaryKey().references("attachments.id").onDelete("cascade"))
    .addColumn("report_id", "text", (c) => c.notNull().references("reports.id").onDelete("cascade"))
    .addColumn("round", "integer", (c) => c.notNull())
    .addColumn("accepted", "boolean", (c) => c.notNull())
    .addColumn("reasons", "jsonb", (c) => c.notNull())
    .addColumn("quality_margin", "double precision")
    .addColumn("ci", "double precision")
    .addColumn("cvai", "double precision")
    .addColumn("cva_mm", "double precision")
    .addColumn("geometry", "jsonb")
    .addColumn("error", "text")
    .addColumn("decision", "text", (c) => c.check(sql`decision in ('accepted', 'rejected')`))
    .addColumn("nose_corrected", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("measurements_report_idx").on("measurements").column("report_id").execute();

  await db.schema
    .createTable("review_actions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("report_id", "text", (c) => c.notNull().references("reports.id").onDelete("cascade"))
    .addColumn("reviewer_id", "text", (c) => c.notNull().references("users.id").onDelete("restrict"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("details", "jsonb", (c) => c.notNull())
    .addColumn("at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("review_actions_report_idx").on("review_actions").columns(["report_id", "at"]).execute();

  await db.schema
    .createTable("report_versions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("report_id", "text", (c) => c.notNull().references("reports.id").onDelete("cascade"))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("blob_key", "text", (c) => c.notNull().unique())
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("published_by", "text", (c) => c.notNull().references("users.id").onDelete("restrict"))
    .addColumn("published_at", "timestamptz", (c) => c.notNull())
    .addColumn("summary", "jsonb", (c) => c.notNull())
    .addUniqueConstraint("report_versions_report_version_key", ["report_id", "version"])
    .execute();
  // Published versions are immutable.
  await sql`create or replace function report_versions_immutable() returns trigger language plpgsql as $$
    begin raise exception 'report_versions are immutable'; end $$`.execute(db);
  await sql`create trigger report_versions_no_update before update on report_versions for each row execute function report_versions_immutable()`.execute(db);

  await db.schema
    .createTable("report_reads")
    .addColumn("report_id", "text", (c) => c.notNull().references("reports.id").onDelete("cascade"))
    .addColumn("physician_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("read_by", "text", (c) => c.notNull().references("users.id").onDelete("restrict"))
    .addColumn("read_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("report_reads_pkey", ["report_id", "physician_id"])
    .execute();

  await db.schema
    .createTable("jobs")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("payload", "jsonb", (c) => c.notNull())
    .addColumn("key", "text")
    .addColumn("state", "text", (c) => c.notNull().defaultTo("pending").check(sql`state in ('pending', 'running', 'done', 'failed')`))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull().defaultTo(5))
    .addColumn("run_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("locked_at", "timestamptz")
    .addColumn("locked_by", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("finished_at", "timestamptz")
    .execute();
  await sql`create index jobs_ready_idx on jobs (run_at, id) where state = 'pending'`.execute(db);
  // One live job per key: enqueueing the same key again while it is pending or running is a no-op.
  await sql`create unique index jobs_live_key_idx on jobs (key) where key is not null and state in ('pending', 'running')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("jobs").ifExists().execute();
  await db.schema.dropTable("report_reads").ifExists().execute();
  await db.schema.dropTable("report_versions").ifExists().execute();
  await sql`drop function if exists report_versions_immutable()`.execute(db);
  await db.schema.dropTable("review_actions").ifExists().execute();
  await db.schema.dropTable("measurements").ifExists().execute();
  await db.schema.dropTable("attachments").ifExists().execute();
  await db.schema.dropTable("reports").ifExists().execute();
}
