import { type Kysely, sql } from "kysely";

/**
 * Indexes that serve each list's filter AND order, so a page costs the same at 1k or 100k reports
 * (ADR 0072). Trigram (pg_trgm) indexes for the searches when the server has the extension
 * (PostgreSQL's contrib, and PGlite, which loads it from its own bundle); without it the searches
 * still work, over the index-narrowed rows only. Frozen in time: imports nothing from the app.
 */

const hasTrigrams = async (db: Kysely<any>) => {
  const { rows } = await sql<{ ok: boolean }>`select exists (select 1 from pg_available_extensions where name = 'pg_trgm') as ok`.execute(db);
  return rows[0]?.ok === true;
};

export async function up(db: Kysely<any>): Promise<void> {
  // A physician's results (and dashboard): published versions only, newest first.
  await sql`create index reports_physician_results_idx on reports (physician_id, published_at desc, id desc) where version > 0`.execute(db);
  // A parent's results, by baby, newest first.
  await sql`create index reports_baby_results_idx on reports (baby_id, published_at desc, id desc) where version > 0`.execute(db);
  // A baby's uploads, newest first (replaces (baby_id, created_at), which lacked the tie-breaker).
  await sql`create index reports_baby_uploads_idx on reports (baby_id, created_at desc, id desc)`.execute(db);
  await sql`drop index if exists reports_baby_idx`.execute(db);
  // The review queue: by status, oldest submission first (replaces (status, submitted_at)).
  await sql`create index reports_queue_idx on reports (status, submitted_at, id)`.execute(db);
  await sql`drop index if exists reports_status_idx`.execute(db);
  // (physician_id, status, published_at) cannot serve the results' order; nothing else reads it.
  await sql`drop index if exists reports_physician_idx`.execute(db);
  // A physician's read flags, for the "new" and "reviewed" filters.
  await sql`create index report_reads_physician_idx on report_reads (physician_id, report_id)`.execute(db);
  // The admin's user directory: newest first, by type or status.
  await sql`create index users_created_idx on users (created_at desc, id desc)`.execute(db);
  await sql`create index users_type_created_idx on users (type, created_at desc, id desc)`.execute(db);
  await sql`create index users_status_created_idx on users (status, created_at desc, id desc)`.execute(db);
  await sql`drop index if exists users_status_idx`.execute(db);
  if (await hasTrigrams(db)) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index reports_baby_name_trgm_idx on reports using gin (baby_name gin_trgm_ops)`.execute(db);
    await sql`create index users_directory_trgm_idx on users using gin ((first_name || ' ' || last_name || ' ' || email) gin_trgm_ops)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists users_directory_trgm_idx`.execute(db);
  await sql`drop index if exists reports_baby_name_trgm_idx`.execute(db);
  await sql`create index if not exists users_status_idx on users (status, created_at)`.execute(db);
  for (const name of ["users_status_created_idx", "users_type_created_idx", "users_created_idx", "report_reads_physician_idx", "reports_queue_idx", "reports_baby_uploads_idx", "reports_baby_results_idx", "reports_physician_results_idx"]) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  }
  await sql`create index if not exists reports_physician_idx on reports (physician_id, status, published_at)`.execute(db);
  await sql`create index if not exists reports_status_idx on reports (status, submitted_at)`.execute(db);
  await sql`create index if not exists reports_baby_idx on reports (baby_id, created_at)`.execute(db);
}
