import { Effect } from "effect";
import { QUALITY_REASONS } from "../measurement/verdict.ts";
import { Attachments, Measurements, ReviewActions } from "./model.ts";
import { presentAttachment, presentForReview, presentMeasurement, presentSummary } from "./present.ts";
import { reportSettings } from "./policy.ts";
import { babyOf, previousResults } from "./queries.ts";
import { reportForReview } from "./review-action.ts";

/**
 * The order a reviewer reads a round in: photos and videos as they were uploaded, and each video's
 * frames after them, video by video, in time order (the analysis stores frames as they finish, which
 * is not the order they were taken in).
 */
export const reviewOrder = <A extends { readonly id: string; readonly kind: string; readonly sourceId: string | null; readonly frameTime: number | null }>(attachments: ReadonlyArray<A>): A[] => {
  const files = attachments.filter((a) => a.kind !== "frame");
  const frames = attachments.filter((a) => a.kind === "frame");
  const position = (a: A) => {
    const source = files.findIndex((f) => f.id === a.sourceId);
    return source === -1 ? files.length : source;
  };
  return [...files, ...[...frames].sort((a, b) => position(a) - position(b) || (a.frameTime ?? 0) - (b.frameTime ?? 0))];
};

/** `GET /review/report/{id}`: everything a reviewer looks at, each photo and frame with its overlay and measurement. */
export const reviewDetail = (reportId: string) =>
  Effect.gen(function* () {
    const { report } = yield* reportForReview(reportId);
    const baby = yield* babyOf(report);
    const attachments = yield* (yield* Attachments).listByReport(report.id);
    const measurements = new Map((yield* (yield* Measurements).listByReport(report.id)).map((m) => [m.attachmentId, m]));
    const actions = yield* (yield* ReviewActions).listByReport(report.id);
    return {
      ...presentForReview(report, baby),
      round: report.round,
      note: report.reviewNote,
      recapture_reasons: report.recaptureReasons,
      version: report.version,
      summary: presentSummary(report.analysis),
      previous_results: yield* previousResults(report),
      attachments: reviewOrder(attachments.filter((a) => a.round === report.round)).map((a) => {
          const m = measurements.get(a.id);
          return { ...presentAttachment(a), kind: a.kind, source_identifier: a.sourceId, frame_time: a.frameTime, measurement: m ? presentMeasurement(m) : null };
        }),
      actions: actions.map((a) => ({ action: a.action, reviewer_identifier: a.reviewerId, details: a.details, at: a.at.toISOString() })),
      recapture_reason_options: QUALITY_REASONS,
      /** The sticker's size the console re-measures CVA in mm with, as the server does (measurement/correction.ts). */
      sticker_diameter_mm: (yield* reportSettings).analyze.stickerDiameterMm ?? 30,
    };
  });
