import { type AnalysisSummary, type ReportListing, type ReportsPort, type ReportWithSummary, INITIAL_REPORT_STATUS, reviewable, statusesWhere } from "@crown/core/report/index";
import { Effect } from "effect";
import { type Kysely, type Selectable, sql } from "kysely";
import { contains, type Executor, run } from "../executor.ts";
import { anchorOf, cappedCount, countCapFor, countOf, rememberAnchor, searchCountMemory, totalFrom, withinReach } from "../paging.ts";
import type { Database, ReportsTable } from "../schema.ts";

/**
 * The report lists (ADR 0072): each query reads only the columns its page shows (the analysis JSON
 * only where the figures are shown), joins the names it shows (no lookup per row), walks an index
 * that serves its filter and its order (migration 2026-11-24T1540), and counts without a rescan
 * (paging.ts). Each list is two statements: the page and its capped count.
 */

/** The statuses a reviewer works on, from the lifecycle (never a list of our own). */
const REVIEWABLE = statusesWhere(reviewable);

const json = <T>(value: unknown): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T));

const LISTING = [
  "r.id",
  "r.baby_id",
  "r.baby_name",
  "r.uploader_id",
  "r.physician_id",
  "r.analysis_type",
  "r.status",
  "r.round",
  "r.submitted_at",
  "r.analyzed_at",
  "r.published_at",
  "r.reviewer_id",
  "r.recapture_reasons",
  "r.version",
  "r.created_at",
  "r.updated_at",
] as const;

/** A report's row without the columns lists never read. */
type ListingRow = Omit<Selectable<ReportsTable>, "analysis" | "upload_cut" | "review_note">;

export const listingFromRow = (row: ListingRow): ReportListing => ({
  id: row.id,
  babyId: row.baby_id,
  babyName: row.baby_name,
  uploaderId: row.uploader_id,
  physicianId: row.physician_id,
  analysisType: row.analysis_type as ReportListing["analysisType"],
  status: row.status,
  round: row.round,
  submittedAt: row.submitted_at,
  analyzedAt: row.analyzed_at,
  publishedAt: row.published_at,
  reviewerId: row.reviewer_id,
  recaptureReasons: json<string[]>(row.recapture_reasons),
  version: row.version,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const withSummary = (row: ListingRow & { analysis: unknown }): ReportWithSummary => ({
  ...listingFromRow(row),
  analysis: row.analysis === null ? null : json<AnalysisSummary>(row.analysis),
});

/** The published reports of a physician matching the search and the read filter (FROM and WHERE only). */
const physicianMatching = (ex: Executor, physicianId: string, search: string | null, filter: "all" | "new" | "reviewed") => {
  let q = ex.selectFrom("reports as r").where("r.physician_id", "=", physicianId).where("r.version", ">", 0);
  if (search) q = q.where("r.baby_name", "ilike", contains(search));
  // OFFSET 0 keeps the check a per-row probe of report_reads' key: otherwise, for a physician who owns most
  // read flags, the planner hashes all of them on every request (a cost that grows with the data).
  const readBy = (eb: any) =>
    eb.exists(eb.selectFrom("report_reads as rr").select("rr.report_id").whereRef("rr.report_id", "=", "r.id").where("rr.physician_id", "=", physicianId).offset(0));
  if (filter === "new") q = q.where((eb) => eb.not(readBy(eb)));
  if (filter === "reviewed") q = q.where((eb) => readBy(eb));
  return q;
};

type ListPorts = Pick<ReportsPort, "resultsForPhysician" | "resultsForBabies" | "uploadsForBaby" | "reviewQueue" | "publishedForBabies">;

export const makeReportLists = (db: Kysely<Database>): ListPorts => {
  const searchCounts = searchCountMemory();
  return {
    resultsForPhysician: (physicianId, { search, filter }, { page, perPage }) =>
      run(db, async (ex) => {
        const list = `results:${physicianId}:${filter}:${perPage}:${search ?? ""}`;
        const matching = physicianMatching(ex, physicianId, search, filter);
        // The page's ids from the index (index-only without a search), keyset when the previous page was just
        // served; one id more than the page tells whether a next page exists.
        const anchor = anchorOf(list, page);
        let ids = matching.select("r.id").orderBy("r.published_at", "desc").orderBy("r.id", "desc").limit(perPage + 1);
        ids = anchor ? ids.where(sql`(r.published_at, r.id)`, "<", sql`(${anchor.at}::timestamptz, ${anchor.id})`) : ids.offset((page - 1) * perPage);
        // The page and its capped count in one statement (one round trip on the hottest page); an empty page
        // carries no count, so only a page past the end counts apart. A search's count stops at the lower cap,
        // and one counted in the last seconds is not counted again (ADR 0100).
        const cap = countCapFor(search);
        const searchKey = `${physicianId}:${filter}:${search ?? ""}`;
        const remembered = search ? searchCounts.get(searchKey) : undefined;
        const query = ex
          .selectFrom("reports as r")
          .leftJoin("report_reads as rr", (j) => j.onRef("rr.report_id", "=", "r.id").on("rr.physician_id", "=", physicianId))
          .leftJoin("babies as b", "b.id", "r.baby_id")
          .leftJoin("users as u", "u.id", "b.parent_id")
          .select(LISTING)
          .select([sql<boolean>`rr.report_id is not null`.as("is_read"), "u.first_name as parent_first", "u.last_name as parent_last", "b.caregiver_email as caregiver_email", sql<string | null>`r.published_at::text`.as("anchor_at")])
          .where("r.id", "in", ids)
          .orderBy("r.published_at", "desc")
          .orderBy("r.id", "desc");
        const fetched: Array<Awaited<ReturnType<typeof query.execute>>[number] & { capped_total?: number | string | null }> =
          remembered === undefined ? await query.select(() => cappedCount(ex, matching, cap).as("capped_total")).execute() : await query.execute();
        const rows = fetched.slice(0, perPage);
        const capped = remembered ?? fetched[0]?.capped_total;
        if (search && remembered === undefined && capped !== undefined && capped !== null) searchCounts.set(searchKey, Number(capped));
        const counted = capped !== undefined && capped !== null ? await totalFrom(ex, list, matching, Number(capped), cap) : page === 1 ? 0 : await countOf(ex, list, matching, cap);
        const total = withinReach(counted, page, perPage, rows.length, fetched.length > perPage);
        rememberAnchor(list, page, perPage, rows);
        return {
          data: rows.map((row) => ({
            report: listingFromRow(row),
            read: Boolean(row.is_read),
            parent: row.parent_first !== null && row.parent_last !== null ? { firstName: row.parent_first, lastName: row.parent_last } : null,
            caregiverEmail: row.caregiver_email ?? null,
          })),
          total,
        };
      }),
    resultsForBabies: (babyIds, { search }, { page, perPage }) =>
      babyIds.length === 0
        ? Effect.succeed({ data: [], total: 0 })
        : run(db, async (ex) => {
            // A parent's few babies: the index by baby serves it; deep pages are rare, so plain OFFSET.
            let matching = ex.selectFrom("reports as r").where("r.baby_id", "in", [...babyIds]).where("r.version", ">", 0);
            if (search) matching = matching.where("r.baby_name", "ilike", contains(search));
            const [rows, total] = await Promise.all([
              matching
                .select(LISTING)
                .select("r.analysis")
                .orderBy("r.published_at", "desc")
                .orderBy("r.id", "desc")
                .limit(perPage)
                .offset((page - 1) * perPage)
                .execute(),
              countOf(ex, `parent-results:${[...babyIds].sort().join(",")}:${search ?? ""}`, matching),
            ]);
            return { data: rows.map(withSummary), total };
          }),
    uploadsForBaby: (babyId, { page, perPage }) =>
      run(db, async (ex) => {
        const matching = ex.selectFrom("reports as r").where("r.baby_id", "=", babyId).where("r.status", "<>", INITIAL_REPORT_STATUS);
        const [rows, total] = await Promise.all([
          matching.select(LISTING).orderBy("r.created_at", "desc").orderBy("r.id", "desc").limit(perPage).offset((page - 1) * perPage).execute(),
          countOf(ex, `uploads:${babyId}`, matching),
        ]);
        return { data: rows.map(listingFromRow), total };
      }),
    reviewQueue: ({ page, perPage }) =>
      run(db, async (ex) => {
        const matching = ex.selectFrom("reports as r").where("r.status", "in", [...REVIEWABLE]);
        // The page's ids first (from the queue index), then their babies: ten lookups, not a join of the whole queue.
        const ids = matching.select("r.id").orderBy("r.submitted_at", "asc").orderBy("r.id").limit(perPage).offset((page - 1) * perPage);
        const [rows, total] = await Promise.all([
          ex
            .selectFrom("reports as r")
            .leftJoin("babies as b", "b.id", "r.baby_id")
            .select(LISTING)
            .select(["r.analysis", "b.first_name", "b.middle_name", "b.last_name", "b.date_of_birth"])
            .where("r.id", "in", ids)
            .orderBy("r.submitted_at", "asc")
            .orderBy("r.id")
            .execute(),
          countOf(ex, "review-queue", matching),
        ]);
        return {
          data: rows.map((row) => ({
            report: withSummary(row),
            baby:
              row.first_name !== null && row.last_name !== null && row.date_of_birth !== null
                ? { firstName: row.first_name, middleName: row.middle_name, lastName: row.last_name, dateOfBirth: row.date_of_birth }
                : null,
          })),
          total,
        };
      }),
    publishedForBabies: (babyIds) =>
      babyIds.length === 0
        ? Effect.succeed([])
        : run(db, (ex) =>
            ex
              .selectFrom("reports as r")
              .select(LISTING)
              .select("r.analysis")
              .where("r.baby_id", "in", [...babyIds])
              .where("r.version", ">", 0)
              .orderBy("r.submitted_at", "asc")
              .orderBy("r.id")
              .execute(),
          ).pipe(Effect.map((rows) => rows.map(withSummary))),
  };
};
