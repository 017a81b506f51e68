import { Effect } from "effect";
import type { User } from "../accounts/model.ts";
import { type OutlineProblem, outlineProblem, remeasure } from "../measurement/correction.ts";
import type { Point } from "../measurement/image.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { now } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { geometryOf } from "./measure.ts";
import { type Measurement, Measurements, type Report } from "./model.ts";
import { reportSettings } from "./policy.ts";
import { presentMeasurement, presentSummary } from "./present.ts";
import { AttachmentRequest, NoseTipRequest, OutlineRequest, REVIEW_MESSAGES } from "./requests.ts";
import { measurementOfReport, refreshSummary, reviewAction } from "./review-action.ts";

/**
 * The reviewer's corrections of a photo (issue 41): the nose tip, the outline, and undoing both.
 * Each re-measures with core's geometry (measurement/correction.ts, the one the console measures
 * with while the reviewer edits), keeps the model's own answer beside the reviewer's the first
 * time, and records who corrected and when; the photo's `model` still names the model that answered.
 */

const PROBLEM_MESSAGES: Record<OutlineProblem, string> = {
  tooFew: REVIEW_MESSAGES.outlineTooFew,
  tooMany: REVIEW_MESSAGES.outlineTooMany,
  outside: REVIEW_MESSAGES.outlineOutside,
  crossing: REVIEW_MESSAGES.outlineCrossing,
};

/** The photo with the reviewer's outline and nose tip, re-measured; the model's answer kept once. */
const corrected = (m: Measurement, outline: ReadonlyArray<Point>, noseTip: Point | null, reviewer: User, outlineChanged: boolean) =>
  Effect.gen(function* () {
    const g = m.geometry;
    if (g === null) return yield* ValidationFailed.field("attachment_identifier", REVIEW_MESSAGES.noImage);
    const stickerMm = (yield* reportSettings).analyze.stickerDiameterMm ?? 30;
    const figures = remeasure(outline, noseTip, g.sticker, stickerMm);
    // A nose tip given where the head cannot be measured is refused; an outline without a nose yet is kept unmeasured.
    if (noseTip !== null && figures === null) return yield* ValidationFailed.field(outlineChanged ? "nose_tip" : "x", REVIEW_MESSAGES.badNose);
    const at = yield* now;
    return {
      ...m,
      ci: figures?.ci ?? null,
      cvai: figures?.cvai ?? null,
      cvaMm: figures?.cvaMm ?? null,
      geometry: geometryOf({ outline, noseTip, sticker: g.sticker }, { width: g.imageWidth, height: g.imageHeight }),
      noseCorrected: m.noseCorrected || !samePoint(noseTip, m.modelAnswer?.geometry.noseTip ?? g.noseTip),
      outlineCorrected: m.outlineCorrected || outlineChanged,
      modelAnswer: m.modelAnswer ?? { ci: m.ci, cvai: m.cvai, cvaMm: m.cvaMm, geometry: g },
      correctedBy: reviewer.id,
      correctedAt: at,
      updatedAt: at,
    } satisfies Measurement;
  });

const samePoint = (a: Point | null, b: Point | null) => (a === null || b === null ? a === b : a.x === b.x && a.y === b.y);

const keep = (report: Report, updated: Measurement) =>
  Effect.gen(function* () {
    yield* (yield* Measurements).upsert(updated);
    return { measurement: presentMeasurement(updated), summary: presentSummary(yield* refreshSummary(report)) };
  });

/** `POST /review/report/{id}/nose-tip`: moves the nose tip (photo pixels of the overlay) and re-measures with core's geometry. */
export const correctNoseTip = (reportId: string, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(NoseTipRequest, input);
    const noseTip = { x: request.x, y: request.y };
    return yield* reviewAction(reportId, "nose_tip_corrected", { attachment: request.attachment_identifier, nose_tip: noseTip }, (report, reviewer) =>
      Effect.gen(function* () {
        const m = yield* measurementOfReport(report, request.attachment_identifier);
        if (m.geometry === null || m.geometry.outline.length < 3) return yield* ValidationFailed.field("attachment_identifier", REVIEW_MESSAGES.noGeometry);
        return yield* keep(report, { ...(yield* corrected(m, m.geometry.outline, noseTip, reviewer, false)), noseCorrected: true });
      }),
    );
  });

/**
 * `POST /review/report/{id}/outline`: the reviewer's outline (and nose tip, when given) replaces the
 * model's and the photo is re-measured. A photo the model found no head in can be outlined this way
 * and then accepted.
 */
export const correctOutline = (reportId: string, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(OutlineRequest, input);
    const outline = request.outline.map((p) => ({ x: p.x, y: p.y }));
    const noseTip = request.nose_tip ? { x: request.nose_tip.x, y: request.nose_tip.y } : undefined;
    // The review log keeps the points' count and the nose, not the whole outline (the measurement row holds it).
    const details = { attachment: request.attachment_identifier, points: outline.length, ...(noseTip ? { nose_tip: noseTip } : {}) };
    return yield* reviewAction(reportId, "outline_corrected", details, (report, reviewer) =>
      Effect.gen(function* () {
        const m = yield* measurementOfReport(report, request.attachment_identifier);
        if (m.geometry === null) return yield* ValidationFailed.field("attachment_identifier", REVIEW_MESSAGES.noImage);
        const problem = outlineProblem(outline, { width: m.geometry.imageWidth, height: m.geometry.imageHeight });
        if (problem !== null) return yield* ValidationFailed.field("outline", PROBLEM_MESSAGES[problem]);
        return yield* keep(report, yield* corrected(m, outline, noseTip ?? m.geometry.noseTip, reviewer, true));
      }),
    );
  });

/** `POST /review/report/{id}/outline/reset`: "Reset to the model's outline": the model's answer and figures come back. */
export const resetOutline = (reportId: string, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(AttachmentRequest, input);
    return yield* reviewAction(reportId, "outline_reset", { attachment: request.attachment_identifier }, (report) =>
      Effect.gen(function* () {
        const m = yield* measurementOfReport(report, request.attachment_identifier);
        const answer = m.modelAnswer;
        if (answer === null) return yield* ValidationFailed.field("attachment_identifier", REVIEW_MESSAGES.notCorrected);
        const at = yield* now;
        return yield* keep(report, {
          ...m,
          ci: answer.ci,
          cvai: answer.cvai,
          cvaMm: answer.cvaMm,
          geometry: answer.geometry,
          noseCorrected: false,
          outlineCorrected: false,
          modelAnswer: null,
          correctedBy: null,
          correctedAt: null,
          updatedAt: at,
        });
      }),
    );
  });
