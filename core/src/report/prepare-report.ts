import { Effect } from "effect";
import { babyName } from "../onboarding/model.ts";
import { once } from "../shared/idempotency.ts";
import { audit, now, Random, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { capturableBaby } from "./access.ts";
import { INITIAL_REPORT_STATUS } from "./lifecycle.ts";
import { type Report, Reports } from "./model.ts";
import { PrepareRequest } from "./requests.ts";

/**
 * `POST /report/prepare`: a new report for a baby the caller may capture for, before its first file. With
 * an idempotency key, a retried call answers the report the first one made (ADR 0141).
 */
export const prepareReport = (input: unknown, idempotencyKey: string | null = null) =>
  Effect.gen(function* () {
    const request = yield* validate(PrepareRequest, input);
    const { caller, baby } = yield* capturableBaby(request.baby_identifier);
    return yield* once(idempotencyKey, caller.user.id, "report.prepare", newReport(caller.user.id, baby, request.analysis_type));
  });

const newReport = (uploaderId: string, baby: Effect.Effect.Success<ReturnType<typeof capturableBaby>>["baby"], analysisType: (typeof PrepareRequest.Type)["analysis_type"]) =>
  Effect.gen(function* () {
    const at = yield* now;
    const report: Report = {
      id: (yield* Random).identifier(),
      babyId: baby.id,
      babyName: babyName(baby),
      uploaderId,
      physicianId: baby.physicianId,
      analysisType,
      status: INITIAL_REPORT_STATUS,
      round: 1,
      submittedAt: null,
      analyzedAt: null,
      publishedAt: null,
      reviewerId: null,
      reviewNote: null,
      recaptureReasons: [],
      analysis: null,
      uploadCut: null,
      version: 0,
      createdAt: at,
      updatedAt: at,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* Reports).insert(report);
        yield* audit({ action: "report.prepare", actorId: uploaderId, subjectId: report.id, details: { baby: baby.id } });
      }),
    );
    return { report_identifier: report.id, status: report.status };
  });
