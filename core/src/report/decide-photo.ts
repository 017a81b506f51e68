import { Effect } from "effect";
import { now } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { Measurements } from "./model.ts";
import { presentSummary } from "./present.ts";
import { DecisionRequest } from "./requests.ts";
import { measurementOfReport, refreshSummary, reviewAction } from "./review-action.ts";

/** `POST /review/report/{id}/decision`: the reviewer accepts or rejects a photo, which wins over the automatic verdict. */
export const decidePhoto = (reportId: string, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(DecisionRequest, input);
    const decision = request.decision.startsWith("accept") ? ("accepted" as const) : ("rejected" as const);
    return yield* reviewAction(reportId, "photo_decision", { attachment: request.attachment_identifier, decision }, (report) =>
      Effect.gen(function* () {
        const m = yield* measurementOfReport(report, request.attachment_identifier);
        yield* (yield* Measurements).upsert({ ...m, decision, updatedAt: yield* now });
        return presentSummary(yield* refreshSummary(report));
      }),
    );
  });
