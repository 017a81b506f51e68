import { Effect, Option } from "effect";
import { type Caller, type User, Users } from "../accounts/model.ts";
import type { Baby } from "../onboarding/model.ts";
import { requireActive } from "../accounts/access.ts";
import { practiceVerified } from "../accounts/practice-verification.ts";
import { readableBaby, type ReportRelation, relationTo, reportNotFound, visibleReport } from "../report/access.ts";
import { type Report, ReportVersions } from "../report/model.ts";
import { NotFound } from "../shared/errors.ts";
import { auditAll } from "../shared/ports.ts";

/**
 * Who may read what through the FHIR API (issue 20): the people a chart belongs with, the same as
 * the rest of the API decides it now. A provider, or their staff through a live delegation, reads
 * the practice's published reports; a parent reads their own babies'. Reviewers and admins work in
 * Crown itself and export nothing. Anything else answers 404, the same as a missing resource.
 */

/** The relations to a report that may export it. */
export const FHIR_RELATIONS: ReadonlyArray<ReportRelation> = ["parent", "physician", "staff"];

/** The audit action of reading a baby's own record (its reports are audited as `report.*`, ADR 22). */
export const PATIENT_VIEWED = "baby.viewed";

export const patientNotFound = () => NotFound.of("Patient");
export const practitionerNotFound = () => NotFound.of("Practitioner");

/** A published report the caller may export, with its baby and its latest published version. */
export const visiblePublishedReport = (reportId: string) =>
  Effect.gen(function* () {
    yield* fhirCaller;
    const { caller, report, baby, relation } = yield* visibleReport(reportId, FHIR_RELATIONS);
    if (report.version === 0 || Option.isNone(baby)) return yield* reportNotFound();
    const version = yield* (yield* ReportVersions).latest(report.id);
    if (Option.isNone(version)) return yield* reportNotFound();
    return { caller, report, baby: baby.value, relation, version: version.value };
  });

/** A baby whose chart the caller may read: its parent, its physician, or staff acting for that physician. */
export const visiblePatient = (babyId: string) =>
  Effect.catchTag(readableBaby(babyId), "NotFound", () => patientNotFound());

/** Of a baby's reports, those the caller may export (a report follows its own physician, not the baby's current one). */
export const exportableReports = (caller: Caller, baby: Baby, reports: ReadonlyArray<Report>) =>
  Effect.filter(reports, (report) =>
    Effect.map(relationTo(caller, report, Option.some(baby)), (relation) => Option.isSome(relation) && FHIR_RELATIONS.includes(relation.value)),
  );

/**
 * A practitioner: a physician whose practice is verified, or a reviewer. Their name and NPI are
 * the directory's (`GET /physicians` is public), so any caller of the FHIR API may read them.
 */
export const visiblePractitioner = (userId: string) =>
  Effect.gen(function* () {
    yield* fhirCaller;
    const user = yield* (yield* Users).findById(userId);
    if (Option.isNone(user) || !isPractitioner(user.value)) return yield* practitionerNotFound();
    return user.value;
  });

/** Whoever signs Crown's reports or receives them: a reviewer, or a physician whose practice is verified (whatever the account's status now: old reports keep their names). */
export const isPractitioner = (user: User) => practiceVerified(user) || user.type === "reviewer";

/** Who may call the FHIR API at all (403 for any other role, as elsewhere). */
export const fhirCaller = requireActive("parent", "physician", "physician_staff");

/** One audit row per baby whose record was read (staff act for the baby's physician). */
export const auditPatientRead = (caller: Caller, baby: Baby) =>
  auditAll([
    {
      action: PATIENT_VIEWED,
      actorId: caller.user.id,
      subjectId: baby.id,
      onBehalfOf: caller.user.type === "physician_staff" ? baby.physicianId : null,
      details: { fhir: "Patient" },
    },
  ]);
