import { type Kysely, sql } from "kysely";

/**
 * A physician's searched results read from one index (ADR 0105): the results index
 * carries the baby's name, so a search walks it newest first and tests each name in the index itself
 * (an index-only scan) instead of visiting a report row per candidate; and reports.baby_name keeps a
 * larger statistics sample, so the planner's guess of how common a search term is no longer swings
 * with each ANALYZE's random sample between that walk and a trigram scan of every physician's matches
 * (a common name: 0.35 ms against 12 ms). Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists reports_physician_results_idx`.execute(db);
  await sql`create index reports_physician_results_idx on reports (physician_id, published_at desc, id desc) include (baby_name) where version > 0`.execute(db);
  await sql`alter table reports alter column baby_name set statistics 1000`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table reports alter column baby_name set statistics -1`.execute(db);
  await sql`drop index if exists reports_physician_results_idx`.execute(db);
  await sql`create index reports_physician_results_idx on reports (physician_id, published_at desc, id desc) where version > 0`.execute(db);
}
