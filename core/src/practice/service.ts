import { Effect, Option } from "effect";
import { AccountsConfig, OneTimeTokens, Sessions, type User, Users } from "../accounts/model.ts";
import { newUser } from "../accounts/model.ts";
import { notify, pageOf, sendAll } from "../notifications/service.ts";
import { latestToday } from "../onboarding/dates.ts";
import { caregiverInvitationMail, patientLinkedMail, staffAddedMail, staffInvitationMail } from "../onboarding/emails.ts";
import { Babies, type Baby, type BabyPatch, babyName } from "../onboarding/model.ts";
import {
  AddStaffRequest,
  ListRequest,
  PatientRequest,
  PatientUpdateRequest,
  RemoveStaffRequest,
  type StaffType,
  validateForm,
} from "../onboarding/schemas.ts";
import { Forbidden, NotFound, ValidationFailed } from "../shared/errors.ts";
import { audit, now, type OutgoingMail, PasswordHasher, Random, requestLanguage, Secrets, transaction } from "../shared/ports.ts";
import { type ActingFor, actingPhysician, displayName, physicianName } from "./access.ts";
import { type Delegation, Delegations } from "./model.ts";

export const MESSAGES = {
  patients: "Patients fetched successfully",
  patientAdded: "Patient details added successfully",
  patientUpdated: "Patient details updated successfully",
  staffAdded: "Staff member added successfully",
  staffRemoved: "Staff member removed successfully",
  staffList: "Staff members fetched successfully",
  staffNotStaff: "This e-mail belongs to an account that cannot be added as staff.",
  staffAlready: "This person is already a staff member of this physician.",
  staffOnlyNurses: "Only the physician can add or remove an office admin.",
  staffIdentifierRequired: "Staff identifier is required",
  physicians: "Physicians fetched successfully",
} as const;

const SEARCH_MIN = 3;
/** The search of a list: used only when the trimmed text is longer than 2 characters. */
const searchText = (search: string | undefined | null) => (search && search.trim().length >= SEARCH_MIN ? search.trim() : null);

const blanksAsAbsent = (input: unknown): unknown =>
  input !== null && typeof input === "object" && !Array.isArray(input)
    ? Object.fromEntries(Object.entries(input).filter(([, v]) => !(typeof v === "string" && v.trim() === "")))
    : input;
const orNull = <T>(value: T | undefined | null): T | null => (value === undefined || value === null || value === "" ? null : value);

/** The patient form reports phone errors as `mobile_number` (the capture spec's field name). */
const renamePhoneErrors = <A, R>(self: Effect.Effect<A, ValidationFailed, R>) =>
  Effect.mapError(self, (error) => {
    if (!error.errors.phone) return error;
    const { phone, ...rest } = error.errors;
    return new ValidationFailed({ message: error.message, errors: { ...rest, mobile_number: phone } });
  });

// ---- Invitations ------------------------------------------------------------------------------------------

/**
 * Creates an invited account (EmailVerificationRequired, an unusable random password) and a
 * one-time invitation token; answers the set-password link. Setting the password through
 * POST /user/password/reset consumes the token, verifies the e-mail and activates the account.
 */
const inviteAccount = (fields: { email: string; type: "parent" | "physician_staff"; firstName: string; lastName: string; phone: string | null }) =>
  Effect.gen(function* () {
    const random = yield* Random;
    const secrets = yield* Secrets;
    const config = yield* AccountsConfig;
    const at = yield* now;
    const passwordHash = yield* (yield* PasswordHasher).hash(random.secret(32));
    // The invitee's first language is the inviting call's; they can change it once signed in.
    const language = yield* requestLanguage;
    const user = newUser({ id: random.identifier(), email: fields.email, passwordHash, type: fields.type, firstName: fields.firstName, lastName: fields.lastName, phone: fields.phone, at, language });
    yield* (yield* Users).insert(user);
    const url = yield* invitationLink(user);
    yield* audit({ action: "account.invited", actorId: null, subjectId: user.id, details: { type: fields.type } });
    return { user, url, ttlDays: Math.round(config.invitationTtlSeconds / 86400) };
  });

/** A fresh invitation link for a user who has not accepted yet (older links stop working). */
const invitationLink = (user: User) =>
  Effect.gen(function* () {
    const random = yield* Random;
    const secrets = yield* Secrets;
    const config = yield* AccountsConfig;
    const tokens = yield* OneTimeTokens;
    const at = yield* now;
    const token = random.secret(32);
    yield* tokens.retireAll(user.id, "invitation", at);
    yield* tokens.insert({
      id: random.identifier(),
      userId: user.id,
      purpose: "invitation",
      digest: secrets.digest(token),
      expiresAt: new Date(at.getTime() + config.invitationTtlSeconds * 1000),
      consumedAt: null,
      createdAt: at,
    });
    return `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}&invite=1`;
  });

const isPendingInvitation = (user: User) => user.emailVerifiedAt === null && user.status === "EmailVerificationRequired";

// ---- Patients -----------------------------------------------------------------------------------------------

export const presentPatient = (baby: Baby, physician: User) => ({
  identifier: baby.id,
  name: babyName(baby),
  first_name: baby.firstName,
  middle_name: baby.middleName,
  last_name: baby.lastName,
  email: baby.caregiverEmail,
  phone: baby.caregiverPhone,
  gender: baby.gender,
  date_of_birth: baby.dateOfBirth,
  previous_condition: baby.previousCondition,
  relation: baby.relation,
  referral_code: baby.referralCode,
  ethnicity: baby.ethnicity,
  nicu_time: baby.nicuTime,
  physician_identifier: physician.id,
  physician: { identifier: physician.id, name: physicianName(physician) },
  created_at: baby.createdAt.toISOString(),
});

export const listPatients = (page: number, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validateForm(ListRequest, blanksAsAbsent(input));
    const acting = yield* actingPhysician(request);
    const perPage = request.per_page ?? 10;
    const result = yield* (yield* Babies).listByPhysician(acting.physician.id, searchText(request.search), { page, perPage });
    yield* audit({ action: "patient.list", actorId: acting.caller.user.id, subjectId: acting.physician.id, details: { page, search: request.search ?? null } });
    return pageOf(result.data.map((b) => presentPatient(b, acting.physician)), result.total, page, perPage);
  });

/**
 * Adds a patient of the acting physician. A caregiver e-mail links the baby to that parent's
 * account, inviting the caregiver (set-password link) when the address has no account yet.
 */
export const addPatient = (input: unknown) =>
  Effect.gen(function* () {
    const raw = blanksAsAbsent(input);
    const request = yield* renamePhoneErrors(validateForm(PatientRequest(latestToday(yield* now)), raw));
    const acting = yield* actingPhysician(request);
    const at = yield* now;
    const id = (yield* Random).identifier();
    const email = request.email ? request.email.toLowerCase() : null;
    return yield* transaction(
      Effect.gen(function* () {
        const users = yield* Users;
        let parent: User | null = null;
        let invitation: { url: string; ttlDays: number } | null = null;
        if (email !== null) {
          const existing = yield* users.findByEmail(email);
          // An account that cannot be a caregiver (staff, a physician) is not linked, and the answer is
          // the same as for any address: the caller learns nothing about who has an account (ADR 22).
          if (Option.isSome(existing) && existing.value.type !== "parent") {
            parent = null;
          } else if (Option.isSome(existing)) {
            parent = existing.value;
            if (isPendingInvitation(parent)) invitation = { url: yield* invitationLink(parent), ttlDays: Math.round((yield* AccountsConfig).invitationTtlSeconds / 86400) };
          } else {
            const invited = yield* inviteAccount({ email, type: "parent", firstName: "", lastName: request.last_name, phone: orNull(request.phone) });
            parent = invited.user;
            invitation = { url: invited.url, ttlDays: invited.ttlDays };
          }
        }
        const baby: Baby = {
          id,
          parentId: parent?.id ?? null,
          physicianId: acting.physician.id,
          firstName: request.first_name,
          middleName: orNull(request.middle_name),
          lastName: request.last_name,
          dateOfBirth: request.date_of_birth,
          relation: orNull(request.relation),
          gender: orNull(request.gender),
          ethnicity: orNull(request.ethnicity),
          nicuTime: orNull(request.nicu_time),
          previousCondition: orNull(request.previous_condition),
          referralCode: orNull(request.referral_code),
          caregiverEmail: email,
          caregiverPhone: orNull(request.phone),
          createdBy: acting.caller.user.id,
          createdAt: at,
          updatedAt: at,
        };
        yield* (yield* Babies).insert(baby);
        const doctor = physicianName(acting.physician);
        const name = babyName(baby);
        const mails: OutgoingMail[] = [];
        if (parent !== null && invitation !== null) {
          mails.push(caregiverInvitationMail(parent.email, doctor, name, invitation.url, invitation.ttlDays, parent.language));
        } else if (parent !== null) {
          const config = yield* AccountsConfig;
          yield* notify(parent.id, "patient_added", `${doctor} added ${name} to your account.`, baby.id);
          mails.push(patientLinkedMail(parent.email, parent.firstName, doctor, name, `${config.publicUrl}/`, parent.language));
        }
        yield* audit({
          action: "patient.added",
          actorId: acting.caller.user.id,
          subjectId: baby.id,
          details: { physician: acting.physician.id, caregiver: parent?.id ?? null, invited: invitation !== null },
        });
        return { patient: presentPatient(baby, acting.physician), mails };
      }),
    ).pipe(Effect.tap(({ mails }) => sendAll(mails)), Effect.map(({ patient }) => patient));
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

export const presentStaff = (member: { delegation: Delegation; user: User }) => ({
  identifier: member.user.id,
  first_name: member.user.firstName,
  last_name: member.user.lastName,
  name: displayName(member.user),
  email: member.user.email,
  phone: member.user.phone,
  role: member.delegation.staffType,
  staff_type: member.delegation.staffType,
  status: member.user.status,
  /** "pending" until the invitee sets a password from the invitation, then "active". */
  state: isPendingInvitation(member.user) ? ("pending" as const) : ("active" as const),
  added_at: member.delegation.createdAt.toISOString(),
});

/**
 * Adds a staff member for the acting physician. A new address gets an invitation (set-password
 * link) and becomes physician_staff; an existing staff account simply gains the delegation. A
 * staff member acting for the physician may add nurses only.
 */
export const addStaff = (input: unknown, options: { nurseOnly?: boolean } = {}) =>
  Effect.gen(function* () {
    const request = yield* validateForm(AddStaffRequest, blanksAsAbsent(input));
    const acting = yield* actingPhysician(request);
    const staffType: StaffType = options.nurseOnly ? "nurse" : request.type ?? request.staff_type ?? "nurse";
    if (acting.delegation !== null && staffType !== "nurse") return yield* new Forbidden({ message: MESSAGES.staffOnlyNurses });
    const email = request.email.toLowerCase();
    return yield* transaction(
      Effect.gen(function* () {
        const users = yield* Users;
        const delegations = yield* Delegations;
        const config = yield* AccountsConfig;
        const existing = yield* users.findByEmail(email);
        let staff: User;
        let invitationUrl: string | null = null;
        if (Option.isSome(existing)) {
          if (existing.value.type !== "physician_staff" || existing.value.status === "Blocked") return yield* ValidationFailed.field("email", MESSAGES.staffNotStaff);
          staff = existing.value;
          if (Option.isSome(yield* delegations.findActive(acting.physician.id, staff.id))) return yield* ValidationFailed.field("email", MESSAGES.staffAlready);
          if (isPendingInvitation(staff)) invitationUrl = yield* invitationLink(staff);
        } else {
          const invited = yield* inviteAccount({ email, type: "physician_staff", firstName: request.first_name ?? "", lastName: request.last_name ?? "", phone: null });
          staff = invited.user;
          invitationUrl = invited.url;
        }
        const delegation: Delegation = {
          id: (yield* Random).identifier(),
          physicianId: acting.physician.id,
          staffId: staff.id,
          staffType,
          createdBy: acting.caller.user.id,
          createdAt: yield* now,
          endedAt: null,
          endedBy: null,
        };
        yield* delegations.insert(delegation);
        const doctor = physicianName(acting.physician);
        let mail: OutgoingMail;
        if (invitationUrl !== null) {
          mail = staffInvitationMail(staff.email, doctor, staffType, invitationUrl, Math.round(config.invitationTtlSeconds / 86400), staff.language);
        } else {
          yield* notify(staff.id, "staff_added", `${doctor} added you to their staff.`, acting.physician.id);
          mail = staffAddedMail(staff.email, staff.firstName, doctor, `${config.publicUrl}/`, staff.language);
        }
        yield* audit({ action: "staff.added", actorId: acting.caller.user.id, subjectId: staff.id, details: { physician: acting.physician.id, staff_type: staffType } });
        return { member: presentStaff({ delegation, user: staff }), mail };
      }),
    ).pipe(Effect.tap(({ mail }) => sendAll([mail])), Effect.map(({ member }) => member));
  });

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
 * checks the delegation); a staff member left with no physician is signed out everywhere.
 * Staff acting for the physician may remove nurses only; an unknown staff member is 404.
 */
export const removeStaff = (input: unknown, options: { nurseOnly?: boolean } = {}) =>
  Effect.gen(function* () {
    const request = yield* validateForm(RemoveStaffRequest, blanksAsAbsent(input));
    const acting: ActingFor = yield* actingPhysician(request);
    const staffId = request.staff_identifier ?? request.nurse_identifier;
    if (!staffId) return yield* ValidationFailed.field(options.nurseOnly ? "nurse_identifier" : "staff_identifier", MESSAGES.staffIdentifierRequired);
    return yield* transaction(
      Effect.gen(function* () {
        const delegations = yield* Delegations;
        const found = yield* delegations.findActive(acting.physician.id, staffId);
        if (Option.isNone(found)) return yield* NotFound.of("Staff member");
        const nurseOnly = options.nurseOnly === true || acting.delegation !== null;
        if (nurseOnly && found.value.staffType !== "nurse") {
          return yield* acting.delegation !== null ? new Forbidden({ message: MESSAGES.staffOnlyNurses }) : NotFound.of("Nurse");
        }
        const at = yield* now;
        yield* delegations.end(found.value.id, at, acting.caller.user.id);
        const remaining = yield* delegations.listActiveForStaff(staffId);
        if (remaining.length === 0) yield* (yield* Sessions).revokeAllForUser(staffId, at);
        yield* audit({ action: "staff.removed", actorId: acting.caller.user.id, subjectId: staffId, details: { physician: acting.physician.id } });
        return { identifier: staffId, physician_identifier: acting.physician.id };
      }),
    );
  });
