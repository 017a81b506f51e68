import { Effect } from "effect";
import { Babies } from "../onboarding/model.ts";
import { displayName } from "../practice/access.ts";
import { type Attachment, Attachments, type Report, Reports } from "./model.ts";
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
export const attachmentsOf = (reports: ReadonlyArray<Report>) =>
  Effect.map(Effect.flatMap(Attachments, (a) => a.listByReports(reports.map((r) => r.id))), (all) => {
    const by = new Map<string, Attachment[]>();
    for (const a of all) if (a.kind !== "frame") (by.get(a.reportId) ?? by.set(a.reportId, []).get(a.reportId)!).push(a);
    return by;
  });

/** The baby's other published results, for the reviewer's eye. */
export const previousResults = (report: Report) =>
  Effect.gen(function* () {
    const published = yield* (yield* Reports).publishedForBaby(report.babyId);
    return published
      .filter((r) => r.id !== report.id)
      .map((r) => ({
        report_identifier: r.id,
        captured_at: (r.submittedAt ?? r.createdAt).toISOString(),
        ci: present2(r.analysis?.ci?.median),
        cvai: present2(r.analysis?.cvai?.median),
      }));
  });

/** The parent's name of each report's baby, by report (one query). */
export const parentNames = (reports: ReadonlyArray<Report>) =>
  Effect.map(Effect.flatMap(Reports, (r) => r.parentsOf(reports.map((x) => x.id))), (parents) => {
    const names = new Map<string, string | null>();
    for (const r of reports) {
      const parent = parents.get(r.id);
      names.set(r.id, parent ? displayName(parent) : null);
    }
    return names;
  });
