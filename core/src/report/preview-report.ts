import { Effect } from "effect";
import { audit, now } from "../shared/ports.ts";
import { ReportRenderer } from "./model.ts";
import { requirePublishable } from "./publish-report.ts";
import { documentInputs, reportDocument } from "./report-document.ts";
import { reportForReview } from "./review-action.ts";

/**
 * A reviewer's preview: the PDF as publishing would render it now, marked as a preview, never
 * stored. Audited like every review read of a report.
 */
export const previewReport = (reportId: string) =>
  Effect.gen(function* () {
    const { caller, report } = yield* reportForReview(reportId);
    yield* requirePublishable(report);
    const document = yield* reportDocument(yield* documentInputs(report), caller.user, yield* now, report.version + 1, "preview");
    const pdf = yield* (yield* ReportRenderer).render(document);
    yield* audit({ action: "review.previewed", actorId: caller.user.id, subjectId: report.id, details: { version: report.version + 1 } });
    return pdf;
  });
