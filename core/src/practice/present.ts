import type { User } from "../accounts/model.ts";
import { type Baby, babyName } from "../onboarding/model.ts";
import { displayName, physicianName } from "../accounts/access.ts";
import { delegationConsent, PENDING_CONSENT } from "./consent.ts";
import { isPendingInvitation } from "./invitations.ts";
import type { StaffType } from "../accounts/staff-types.ts";
import type { Delegation } from "../accounts/delegations.ts";
import type { PatientLinkRequest } from "./model.ts";
import type { LinkKind } from "./requests.ts";

/** The practice's wire shapes. */

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

/**
 * A staff member as the practice sees them. Until the person has answered (an invitee who has not set a
 * password, or an existing account that has not accepted the offer) the row shows only what the practice
 * gave, the same for an address with or without an account (ADR 56): no name, phone or account status,
 * and the delegation's identifier (new either way) rather than the account's.
 */
export const presentStaff = (member: { delegation: Delegation; user: User }) => {
  const base = { email: member.user.email, role: member.delegation.staffType, staff_type: member.delegation.staffType, added_at: member.delegation.createdAt.toISOString() };
  if (delegationConsent(member.delegation) === PENDING_CONSENT || isPendingInvitation(member.user)) {
    return { identifier: member.delegation.id, first_name: "", last_name: "", name: "", phone: null, status: null, state: "pending" as const, ...base };
  }
  return {
    identifier: member.user.id,
    first_name: member.user.firstName,
    last_name: member.user.lastName,
    name: displayName(member.user),
    phone: member.user.phone,
    status: member.user.status,
    state: "active" as const,
    ...base,
  };
};

/** A request awaiting the invitee's answer, as the invitee sees it (ADR 56). */
export interface LinkRequestView {
  readonly identifier: string;
  readonly kind: LinkKind;
  readonly physician: { readonly identifier: string; readonly name: string };
  /** The baby a parent is asked to take into their account; null for a staff offer. */
  readonly baby: { readonly identifier: string; readonly name: string; readonly date_of_birth: string } | null;
  /** The role a staff member is offered; null for a patient. */
  readonly staff_type: StaffType | null;
  readonly created_at: string;
}

const physicianView = (physician: User) => ({ identifier: physician.id, name: physicianName(physician) });

export const presentPatientRequest = (request: PatientLinkRequest, baby: Baby, physician: User): LinkRequestView => ({
  identifier: request.id,
  kind: "patient",
  physician: physicianView(physician),
  baby: { identifier: baby.id, name: babyName(baby), date_of_birth: baby.dateOfBirth },
  staff_type: null,
  created_at: request.createdAt.toISOString(),
});

export const presentStaffOffer = (offer: Delegation, physician: User): LinkRequestView => ({
  identifier: offer.id,
  kind: "staff",
  physician: physicianView(physician),
  baby: null,
  staff_type: offer.staffType,
  created_at: offer.createdAt.toISOString(),
});
