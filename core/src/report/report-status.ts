import { Effect } from "effect";
import { visibleReport } from "./access.ts";
import { isPublished } from "./lifecycle.ts";
import { Attachments, Reports } from "./model.ts";
import { presentAttachment, presentSummary, uploadedDate } from "./present.ts";
import { auditReportReads, READ_AUDIT } from "./read-audit.ts";
import { UPLOAD_MESSAGES } from "./requests.ts";

/** Reports' detail for the people who may see them (status, figures once published). */
export const reportStatus = (reportId: string) =>
  Effect.gen(function* () {
    const { caller, report } = yield* visibleReport(reportId);
    yield* auditReportReads(READ_AUDIT.viewed, caller, [report]);
    const attachments = (yield* (yield* Attachments).listByReport(report.id)).filter((a) => a.kind !== "frame");
    return {
      report_identifier: report.id,
      baby_name: report.babyName,
      status: report.status,
      round: report.round,
      uploaded_date: uploadedDate(report),
      published_date: report.publishedAt?.toISOString() ?? null,
      version: report.version,
      recapture_reasons: report.recaptureReasons,
      summary: isPublished(report.status) ? presentSummary(report.analysis) : null,
      attachments: attachments.map(presentAttachment),
      // The last upload that ended early, until a complete one: what was kept of it (ADR 0028).
      upload_cut: report.uploadCut ? { message: UPLOAD_MESSAGES.cutShort, at: report.uploadCut.at, kept_files: report.uploadCut.kept } : null,
    };
  });

/** For reminders: when each baby was last uploaded for (the onboarding `UploadHistory` port). */
export const lastUploads = (babyIds: ReadonlyArray<string>) => Effect.flatMap(Reports, (r) => r.lastSubmitted(babyIds));
