import { Effect } from "effect";
import { QUALITY_REASONS } from "../measurement/verdict.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { now } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { Measurements } from "./model.ts";
import { presentSummary } from "./present.ts";
import { DecisionRequest, REVIEW_MESSAGES } from "./requests.ts";
import { measurementOfReport, refreshSummary, reviewAction } from "./review-action.ts";

/**
 * `POST /review/report/{id}/decision`: the reviewer accepts or rejects a photo, which wins over the
 * automatic verdict. A reject names one of the quiz's eight bad-image reasons (the label the reviewed
 * set keeps); an accept clears it.
 */
export const decidePhoto = (reportId: string, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(DecisionRequest, input);
    const decision = request.decision.startsWith("accept") ? ("accepted" as const) : ("rejected" as const);
    const reason = decision === "rejected" ? (request.reason?.trim() ?? "") : null;
    if (reason !== null && !(QUALITY_REASONS as ReadonlyArray<string>).includes(reason)) return yield* ValidationFailed.field("reason", REVIEW_MESSAGES.rejectReason);
    const details = { attachment: request.attachment_identifier, decision, ...(reason !== null ? { reason } : {}) };
    return yield* reviewAction(reportId, "photo_decision", details, (report) =>
      Effect.gen(function* () {
        const m = yield* measurementOfReport(report, request.attachment_identifier);
        yield* (yield* Measurements).upsert({ ...m, decision, decisionReason: reason, updatedAt: yield* now });
        return presentSummary(yield* refreshSummary(report));
      }),
    );
  });
