import { Effect } from "effect";
import { babyName } from "../onboarding/model.ts";
import { audit, now, Random, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { capturableBaby } from "./access.ts";
import { INITIAL_REPORT_STATUS } from "./lifecycle.ts";
import { type Report, Reports } from "./model.ts";
import { PrepareRequest } from "./requests.ts";

/** `POST /report/prepare`: a new report for a baby the caller may capture for, before its first file. */
export const prepareReport = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(PrepareRequest, input);
    const { caller, baby } = yield* capturableBaby(request.baby_identifier);
    const at = yield* now;
    const report: Report = {
      id: (yield* Random).identifier(),
      babyId: baby.id,
      babyName: babyName(baby),
      uploaderId: caller.user.id,
      physicianId: baby.physicianId,
      analysisType: request.analysis_type,
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
        yield* audit({ action: "report.prepare", actorId: caller.user.id, subjectId: report.id, details: { baby: baby.id } });
      }),
    );
    return { report_identifier: report.id, status: report.status };
  });
