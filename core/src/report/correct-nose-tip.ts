import { Effect } from "effect";
import { cvaMillimetres, measureHead } from "../measurement/geometry.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { now } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { geometryOf } from "./measure.ts";
import { type Measurement, Measurements } from "./model.ts";
import { reportSettings } from "./policy.ts";
import { presentMeasurement, presentSummary } from "./present.ts";
import { NoseTipRequest, REVIEW_MESSAGES } from "./requests.ts";
import { measurementOfReport, refreshSummary, reviewAction } from "./review-action.ts";

/** `POST /review/report/{id}/nose-tip`: moves the nose tip (photo pixels of the overlay) and re-measures with core's geometry. */
export const correctNoseTip = (reportId: string, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(NoseTipRequest, input);
    const noseTip = { x: request.x, y: request.y };
    return yield* reviewAction(reportId, "nose_tip_corrected", { attachment: request.attachment_identifier, nose_tip: noseTip }, (report) =>
      Effect.gen(function* () {
        const m = yield* measurementOfReport(report, request.attachment_identifier);
        const g = m.geometry;
        if (g === null || g.outline.length < 3) return yield* ValidationFailed.field("attachment_identifier", REVIEW_MESSAGES.noGeometry);
        const head = measureHead(g.outline, noseTip);
        if (head === null) return yield* ValidationFailed.field("x", REVIEW_MESSAGES.badNose);
        const geometry = geometryOf({ outline: g.outline, noseTip, sticker: g.sticker }, { width: g.imageWidth, height: g.imageHeight });
        const sticker = g.sticker ? 2 * g.sticker.radius : null;
        const updated: Measurement = {
          ...m,
          ci: head.ci,
          cvai: head.cvai,
          cvaMm: cvaMillimetres(head, sticker, (yield* reportSettings).analyze.stickerDiameterMm ?? 30),
          geometry,
          noseCorrected: true,
          updatedAt: yield* now,
        };
        yield* (yield* Measurements).upsert(updated);
        return { measurement: presentMeasurement(updated), summary: presentSummary(yield* refreshSummary(report)) };
      }),
    );
  });
