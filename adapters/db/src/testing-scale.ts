import { ACTIVE_STATUS } from "@crown/core/accounts/lifecycle";
import { reopenable, reviewable, statusesWhere } from "@crown/core/report/index";
import { type Kysely, sql } from "kysely";
import type { Database } from "./schema.ts";

/**
 * A clinic-scale data set made inside PostgreSQL with generate_series (seconds, not minutes), for
 * the list-plan test and the results bench (ADR 0072): one physician per size in `sizes` with that
 * many published reports (ten per baby, each baby with its parent), a third of them read, and a few
 * reports waiting for review. Baby names come from 40 first × 50 last names, so a search for a last
 * name matches about 2% of a physician's reports.
 */

export interface ScaleOptions {
  /** Published reports per physician, e.g. [100_000, 10_000, 1_000]. */
  readonly sizes: ReadonlyArray<number>;
  /** The physicians' (and the reviewer's) password hash, for a bench that signs in; any text otherwise. */
  readonly passwordHash?: string;
  /** A prefix for every id and e-mail (several data sets in one database). */
  readonly prefix?: string;
}

export interface ScaleData {
  readonly physicians: ReadonlyArray<{ readonly id: string; readonly email: string; readonly reports: number }>;
  readonly reviewer: { readonly id: string; readonly email: string };
  /** A parent of the largest physician (with one baby and its ten reports). */
  readonly parent: { readonly id: string; readonly email: string; readonly babyId: string };
  /** A last name that matches about 2% of each physician's reports. */
  readonly searchTerm: string;
}

const FIRST = "Olivia Liam Emma Noah Amelia Oliver Ava Elijah Sophia Mateo Isabella Lucas Mia Levi Evelyn Asher Harper James Luna Leo Camila Grayson Gianna Ezra Elizabeth Luca Eleanor Ethan Ella Aiden Abigail Wyatt Sofia Sebastian Avery Jack Scarlett Daniel Emily Henry".split(" ");
const LAST = "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts".split(" ");

// The shape of core's AnalysisSummary (a report's figures as the lists present them).
/** The statuses from the lifecycle: published (it can be reopened) and waiting for a reviewer. */
const PUBLISHED = statusesWhere(reopenable)[0]!;
const WAITING = statusesWhere(reviewable)[0]!;

const SUMMARY = JSON.stringify({
  accepted: 5,
  measured: 6,
  ci: { median: 82.41, min: 81.9, max: 83.2, count: 5 },
  cvai: { median: 3.12, min: 2.8, max: 3.6, count: 5 },
  cva_mm: { median: 4.1, min: 3.7, max: 4.6, count: 5 },
  problems: [],
  agreement: [
    { index: "CI", min: 81.9, max: 83.2, count: 5, limit: 2.4, disagree: false },
    { index: "CVAI", min: 2.8, max: 3.6, count: 5, limit: 1.9, disagree: false },
  ],
});

export const seedScale = async (db: Kysely<Database>, options: ScaleOptions): Promise<ScaleData> => {
  const p = options.prefix ?? "scale";
  const hash = options.passwordHash ?? "not-a-hash";
  const first = sql`(array[${sql.join(FIRST.map((n) => sql.lit(n)))}])`;
  const last = sql`(array[${sql.join(LAST.map((n) => sql.lit(n)))}])`;
  const reviewer = { id: `${p}-reviewer`, email: `${p}-reviewer@example.com` };
  const physicians = options.sizes.map((reports, k) => ({ id: `${p}-physician-${k}`, email: `${p}-physician-${k}@example.com`, reports }));
  await sql`
    insert into users (id, email, password_hash, type, status, first_name, last_name, email_verified_at, password_changed_at,
                       disclaimer_accepted_at, baa_signed_at, quiz_passed_at, npi, practice_verified_at, created_at)
    select id, email, ${hash}, type, ${ACTIVE_STATUS}, 'Scale', name, now(), now(), now(), now(), now(), npi, now(), now()
    from (values ${sql.join([
      sql`(${reviewer.id}, ${reviewer.email}, 'reviewer', 'Reviewer', null::text)`,
      ...physicians.map((d, k) => sql`(${d.id}, ${d.email}, 'physician', ${`Physician${k}`}, ${String(1_000_000_000 + k)})`),
    ])}) as v(id, email, type, name, npi)`.execute(db);
  for (const [k, d] of physicians.entries()) {
    const babies = Math.max(1, Math.ceil(d.reports / 10));
    // Parents, their babies, ten published reports per baby a minute apart, newest first.
    await sql`
      insert into users (id, email, password_hash, type, status, first_name, last_name, email_verified_at, password_changed_at, created_at)
      select ${p} || '-parent-' || ${k} || '-' || i, ${p} || '-parent-' || ${k} || '-' || i || '@example.com', ${hash}, 'parent', ${ACTIVE_STATUS},
             ${first}[1 + i % 40], ${last}[1 + (i / 40) % 50], now(), now(), now() - i * interval '1 second'
      from generate_series(1, ${babies}) i`.execute(db);
    await sql`
      insert into babies (id, parent_id, physician_id, first_name, last_name, date_of_birth, created_by, created_at)
      select ${p} || '-baby-' || ${k} || '-' || i, ${p} || '-parent-' || ${k} || '-' || i, ${d.id},
             ${first}[1 + (i * 7) % 40], ${last}[1 + (i * 13) % 50], date '2026-06-01' - (i % 200), ${d.id}, now()
      from generate_series(1, ${babies}) i`.execute(db);
    await sql`
      insert into reports (id, baby_id, baby_name, uploader_id, physician_id, analysis_type, status, round, submitted_at, analyzed_at,
                           published_at, reviewer_id, analysis, version, created_at, updated_at)
      select ${p} || '-report-' || ${k} || '-' || i, b.id, b.first_name || ' ' || b.last_name, ${d.id}, ${d.id}, 'head_ci_cvai_analysis',
             ${PUBLISHED}, 1, t - interval '2 hours', t - interval '1 hour', t, ${reviewer.id}, ${SUMMARY}::jsonb, 1, t - interval '3 hours', t
      from generate_series(1, ${d.reports}) i
      cross join lateral (select now() - i * interval '1 minute' as t) times
      join babies b on b.id = ${p} || '-baby-' || ${k} || '-' || (1 + (i - 1) % ${babies})`.execute(db);
    await sql`
      insert into report_reads (report_id, physician_id, read_by, read_at)
      select ${p} || '-report-' || ${k} || '-' || i, ${d.id}, ${d.id}, now() from generate_series(3, ${d.reports}, 3) i`.execute(db);
    // A few reports waiting for review (the queue).
    await sql`
      insert into reports (id, baby_id, baby_name, uploader_id, physician_id, analysis_type, status, round, submitted_at, analyzed_at,
                           analysis, version, created_at, updated_at)
      select ${p} || '-waiting-' || ${k} || '-' || i, ${p} || '-baby-' || ${k} || '-' || i, 'Waiting Baby', ${d.id}, ${d.id}, 'head_ci_cvai_analysis',
             ${WAITING}, 1, now() - i * interval '1 minute', now(), ${SUMMARY}::jsonb, 0, now(), now()
      from generate_series(1, least(${babies}, 25)) i`.execute(db);
  }
  await sql`vacuum (analyze) reports, report_reads, babies, users`.execute(db);
  const biggest = physicians.reduce((a, b) => (b.reports > a.reports ? b : a));
  const k = physicians.indexOf(biggest);
  return {
    physicians,
    reviewer,
    parent: { id: `${p}-parent-${k}-1`, email: `${p}-parent-${k}-1@example.com`, babyId: `${p}-baby-${k}-1` },
    searchTerm: "Harris",
  };
};
