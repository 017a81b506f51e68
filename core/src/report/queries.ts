import { Effect } from "effect";
import { Babies } from "../onboarding/model.ts";
import { type Attachment, Attachments, type Report, type ReportListing, Reports, type ReportWithSummary } from "./model.ts";
import { present2 } from "./present.ts";

/** Reads that several of the report's use cases make. */

export const babyOf = (report: Report) => Effect.flatMap(Babies, (b) => b.findById(report.babyId));

/** Files and photos of a round of the report (frames taken from videos not counted). */
export const roundCounts = (reportId: string, round: number) =>
  Effect.map(Effect.flatMap(Attachments, (a) => a.listByReport(reportId)), (all) => {
    const mine = all.filter((a) => a.round === round && a.kind !== "frame");
    return { files: mine.length, photos: mine.filter((a) => a.kind === "image").length };
  });

/** The files (not frames) of each report, by report. */
export const attachmentsOf = (reports: ReadonlyArray<Pick<ReportListing, "id">>) =>
  Effect.map(Effect.flatMap(Attachments, (a) => a.listByReports(reports.map((r) => r.id))), (all) => {
    const by = new Map<string, Attachment[]>();
    for (const a of all) if (a.kind !== "frame") (by.get(a.reportId) ?? by.set(a.reportId, []).get(a.reportId)!).push(a);
    return by;
  });

/** How the reviewer sees a baby's other published result. */
const previousResult = (r: ReportWithSummary) => ({
  report_identifier: r.id,
  captured_at: (r.submittedAt ?? r.createdAt).toISOString(),
  ci: present2(r.analysis?.ci?.median),
  cvai: present2(r.analysis?.cvai?.median),
});

/** The baby's other published results, for the reviewer's eye. */
export const previousResults = (report: Report) =>
  Effect.map(Effect.flatMap(Reports, (r) => r.publishedForBaby(report.babyId)), (published) => published.filter((r) => r.id !== report.id).map(previousResult));

/** The same for a whole page of reports, in one query: each report's baby's other published results, by report. */
export const previousResultsOf = (reports: ReadonlyArray<Pick<ReportListing, "id" | "babyId">>) =>
  Effect.map(Effect.flatMap(Reports, (r) => r.publishedForBabies([...new Set(reports.map((x) => x.babyId))])), (published) => {
    const by = new Map<string, Array<ReturnType<typeof previousResult>>>();
    for (const report of reports) by.set(report.id, published.filter((p) => p.babyId === report.babyId && p.id !== report.id).map(previousResult));
    return by;
  });
