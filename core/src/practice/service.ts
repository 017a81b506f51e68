import { Effect, Option } from "effect";
import { Sessions } from "../accounts/model.ts";
import { pageOf } from "../shared/page.ts";
import { latestToday } from "../shared/days.ts";
import { Babies, type BabyPatch } from "../onboarding/model.ts";
import { ListRequest, PatientUpdateRequest, RemoveStaffRequest, validateForm } from "../onboarding/schemas.ts";
import { type StaffType } from "../accounts/staff-types.ts";
import { Forbidden, NotFound, ValidationFailed } from "../shared/errors.ts";
import { audit, now, transaction } from "../shared/ports.ts";
import { type ActingFor, actingPhysician } from "./access.ts";
import { consentAfter, delegationConsent } from "./consent.ts";
import { Delegations } from "../accounts/delegations.ts";
import { presentPatient, presentStaff } from "./present.ts";
import { blanksAsAbsent, MESSAGES, orNull, renamePhoneErrors, searchText } from "./requests.ts";

/** The practice's patients and staff; adding either is one use case a file (add-patient.ts, add-staff.ts). */
export { addPatient } from "./add-patient.ts";
export { addStaff } from "./add-staff.ts";
export { acceptLinkRequest, declineLinkRequest, myLinkRequests } from "./link-requests.ts";
export { presentPatient, presentStaff } from "./present.ts";
export { LinkAnswerRequest, MESSAGES } from "./requests.ts";
export { INVITATION_LIMIT_MESSAGE, INVITATIONS_PER_PRACTICE, invitationBucket } from "./policy.ts";

export const listPatients = (page: number, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validateForm(ListRequest, blanksAsAbsent(input));
    const acting = yield* actingPhysician(request);
    const perPage = request.per_page ?? 10;
    const result = yield* (yield* Babies).listByPhysician(acting.physician.id, searchText(request.search), { page, perPage });
    yield* audit({ action: "patient.list", actorId: acting.caller.user.id, subjectId: acting.physician.id, details: { page, search: request.search ?? null } });
    return pageOf(result.data.map((b) => presentPatient(b, acting.physician)), result.total, page, perPage);
  });

/** Edits a patient of the acting physician; the caregiver e-mail is not editable. Another practice's patient answers 404. */
export const updatePatient = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* renamePhoneErrors(validateForm(PatientUpdateRequest(latestToday(yield* now)), blanksAsAbsent(input)));
    const acting = yield* actingPhysician(request);
    const babies = yield* Babies;
    const existing = yield* babies.findById(request.identifier);
    if (Option.isNone(existing) || existing.value.physicianId !== acting.physician.id) return yield* NotFound.of("Patient");
    const patch: BabyPatch = {
      firstName: request.first_name,
      middleName: orNull(request.middle_name),
      lastName: request.last_name,
      dateOfBirth: request.date_of_birth,
      gender: orNull(request.gender),
      previousCondition: orNull(request.previous_condition),
      referralCode: orNull(request.referral_code),
      caregiverPhone: orNull(request.phone),
      ...(request.relation ? { relation: request.relation } : {}),
      ...(request.ethnicity ? { ethnicity: request.ethnicity } : {}),
      ...(request.nicu_time !== undefined && request.nicu_time !== null ? { nicuTime: request.nicu_time } : {}),
      updatedAt: yield* now,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* babies.update(existing.value.id, patch);
        yield* audit({ action: "patient.updated", actorId: acting.caller.user.id, subjectId: existing.value.id, details: { fields: Object.keys(patch) } });
      }),
    );
    return presentPatient({ ...existing.value, ...patch }, acting.physician);
  });

// ---- Staff ---------------------------------------------------------------------------------------------

export const listStaff = (page: number, input: unknown, types: ReadonlyArray<StaffType>) =>
  Effect.gen(function* () {
    const request = yield* validateForm(ListRequest, blanksAsAbsent(input));
    const acting = yield* actingPhysician(request);
    const perPage = request.per_page ?? 10;
    const result = yield* (yield* Delegations).listStaff(acting.physician.id, types, { page, perPage });
    return pageOf(result.data.map(presentStaff), result.total, page, perPage);
  });

/**
 * Ends a staff member's delegation for the acting physician. Access ends at once (every call
 * checks the delegation); a staff member left with no physician is signed out everywhere. A row
 * still awaiting its answer (named by the identifier the list shows) is withdrawn the same way.
 * Staff acting for the physician may remove nurses only; an unknown staff member is 404.
 */
export const removeStaff = (input: unknown, options: { nurseOnly?: boolean } = {}) =>
  Effect.gen(function* () {
    const request = yield* validateForm(RemoveStaffRequest, blanksAsAbsent(input));
    const acting: ActingFor = yield* actingPhysician(request);
    const named = request.staff_identifier ?? request.nurse_identifier;
    if (!named) return yield* ValidationFailed.field(options.nurseOnly ? "nurse_identifier" : "staff_identifier", MESSAGES.staffIdentifierRequired);
    return yield* transaction(
      Effect.gen(function* () {
        const delegations = yield* Delegations;
        const byStaff = yield* delegations.findLive(acting.physician.id, named);
        const byRow = Option.isSome(byStaff) ? byStaff : Option.filter(yield* delegations.findById(named), (d) => d.physicianId === acting.physician.id && d.endedAt === null);
        if (Option.isNone(byRow)) return yield* NotFound.of("Staff member");
        const found = byRow.value;
        const nurseOnly = options.nurseOnly === true || acting.delegation !== null;
        if (nurseOnly && found.staffType !== "nurse") {
          return yield* acting.delegation !== null ? new Forbidden({ message: MESSAGES.staffOnlyNurses }) : NotFound.of("Nurse");
        }
        const at = yield* now;
        yield* delegations.end(found.id, at, acting.caller.user.id);
        // An offer never answered gave no access: withdrawing it signs nobody out.
        const withdrawn = consentAfter(delegationConsent(found), "WITHDRAW") !== null;
        if (!withdrawn && (yield* delegations.listActiveForStaff(found.staffId)).length === 0) yield* (yield* Sessions).revokeAllForUser(found.staffId, at);
        yield* audit({ action: withdrawn ? "staff.withdrawn" : "staff.removed", actorId: acting.caller.user.id, subjectId: found.staffId, details: { physician: acting.physician.id, delegation: found.id } });
        return { identifier: named, physician_identifier: acting.physician.id };
      }),
    );
  });
