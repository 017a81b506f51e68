import { Effect, Option } from "effect";
import { Babies } from "../onboarding/model.ts";
import { addPatient, listPatients } from "../practice/service.ts";
import { finalizeReport, prepareReport, PrepareRequest, ReportIdentifierRequest, UPLOAD_MESSAGES } from "../report/index.ts";
import { Reports } from "../report/model.ts";
import { uploadAttachments, type UploadPart } from "../report/upload.ts";
import { NotFound, ValidationFailed } from "../shared/errors.ts";
import { validate } from "../shared/validation.ts";
import { CurrentKiosk } from "./model.ts";
import { forPractice } from "./policy.ts";

/* Patients and reports on the tablet, through the practice and report use cases, for the device's practice only. */

export const kioskPatients = (page: number, input: unknown) =>
  Effect.flatMap(CurrentKiosk, (kiosk) => listPatients(page, forPractice(input, kiosk.physician.id)));

export const kioskAddPatient = (input: unknown) => Effect.flatMap(CurrentKiosk, (kiosk) => addPatient(forPractice(input, kiosk.physician.id)));

// A parent's code for the kiosk: babyQr and patientByQr in baby-code.ts.

const notThisPractice = () => NotFound.of("Report");

export const kioskPrepare = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(PrepareRequest, input);
    const kiosk = yield* CurrentKiosk;
    const baby = yield* (yield* Babies).findById(request.baby_identifier);
    if (Option.isNone(baby) || baby.value.physicianId !== kiosk.physician.id) return yield* NotFound.of("Baby");
    return yield* prepareReport(request);
  });

/** A report this kiosk session prepared for the device's practice; anything else is 404. */
const kioskReport = (reportId: string) =>
  Effect.gen(function* () {
    const kiosk = yield* CurrentKiosk;
    const report = yield* (yield* Reports).findById(reportId);
    if (Option.isNone(report) || report.value.physicianId !== kiosk.physician.id || report.value.uploaderId !== kiosk.staff.id) {
      return yield* notThisPractice();
    }
    return report.value;
  });

/** The kiosk names the report in the query, so it is checked before any byte is stored. */
export const kioskUpload = (parts: AsyncIterable<UploadPart>, reportId: string | null) =>
  Effect.gen(function* () {
    if (!reportId) return yield* ValidationFailed.field("report_identifier", UPLOAD_MESSAGES.reportRequired);
    yield* kioskReport(reportId);
    return yield* uploadAttachments(parts, reportId);
  });

export const kioskFinalize = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ReportIdentifierRequest, input);
    yield* kioskReport(request.report_identifier);
    return yield* finalizeReport(request);
  });
