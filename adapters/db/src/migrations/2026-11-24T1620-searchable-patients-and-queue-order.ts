import { type Kysely, sql } from "kysely";

/**
 * The lists ADR 0072 left (ADR 0090): the physician's patient list, searchable through trigram indexes
 * on immutable expressions (concat_ws is not immutable and cannot be indexed) and ordered by an index
 * with its tie-breaker; the review queue ordered by an index over the waiting reports only, so a page is
 * an index walk instead of a sort of every waiting report. Frozen in time: imports nothing from the app,
 * so the queue's statuses (the lifecycle's reviewable ones when this was written) are spelled here.
 */

const hasTrigrams = async (db: Kysely<any>) => {
  const { rows } = await sql<{ ok: boolean }>`select exists (select 1 from pg_available_extensions where name = 'pg_trgm') as ok`.execute(db);
  return rows[0]?.ok === true;
};

export async function up(db: Kysely<any>): Promise<void> {
  // A physician's patients, newest first with the id as tie-breaker (replaces (physician_id, created_at)).
  await sql`create index babies_physician_list_idx on babies (physician_id, created_at desc, id desc)`.execute(db);
  await sql`drop index if exists babies_physician_idx`.execute(db);
  // The review queue: waiting reports only, oldest submission first. (status, submitted_at, id) stays for
  // crash recovery, which reads one status at a time.
  await sql`create index reports_waiting_idx on reports (submitted_at, id) where status in ('analyzed', 'in_review')`.execute(db);
  if (await hasTrigrams(db)) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    // The same expressions as the patient search (Babies.listByPhysician): with and without the middle name, and the caregiver's e-mail.
    await sql`create index babies_full_name_trgm_idx on babies using gin ((first_name || ' ' || coalesce(middle_name || ' ', '') || last_name) gin_trgm_ops)`.execute(db);
    await sql`create index babies_name_trgm_idx on babies using gin ((first_name || ' ' || last_name) gin_trgm_ops)`.execute(db);
    await sql`create index babies_caregiver_email_trgm_idx on babies using gin (caregiver_email gin_trgm_ops)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ["babies_caregiver_email_trgm_idx", "babies_name_trgm_idx", "babies_full_name_trgm_idx", "reports_waiting_idx", "babies_physician_list_idx"]) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  }
  await sql`create index if not exists babies_physician_idx on babies (physician_id, created_at)`.execute(db);
}
