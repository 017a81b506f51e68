import { Effect, Option } from "effect";
import { isBlocked } from "../accounts/lifecycle.ts";
import { AccountsConfig, type User, Users } from "../accounts/model.ts";
import { notify, sendAll } from "../notifications/service.ts";
import { latestToday } from "../shared/days.ts";
import { Babies, type Baby, babyName } from "../onboarding/model.ts";
import { PatientRequest, validateForm } from "../onboarding/schemas.ts";
import { audit, now, type OutgoingMail, Random, transaction } from "../shared/ports.ts";
import { actingPhysician } from "./access.ts";
import { physicianName } from "../accounts/access.ts";
import { PENDING_CONSENT } from "./consent.ts";
import { caregiverInvitationMail, nothingLinkedMail, patientLinkRequestMail } from "./emails.ts";
import { invitationDays, invitationLink, inviteAccount, isPendingInvitation, linkRequestsUrl, sameWorkAsAnInvitation, throttleInvitations } from "./invitations.ts";
import { type PatientLinkRequest, PatientLinkRequests } from "./model.ts";
import { presentPatient } from "./present.ts";
import { blanksAsAbsent, orNull, renamePhoneErrors } from "./requests.ts";

/** What a caregiver e-mail leads to: an invitation (a new person), a request for consent (a parent's account), or nothing. */
type Caregiver =
  | { readonly kind: "invited"; readonly parent: User; readonly url: string; readonly ttlDays: number }
  | { readonly kind: "asked"; readonly parent: User }
  /** An account that cannot be a caregiver: told that nothing was added. */
  | { readonly kind: "refused"; readonly account: User }
  | { readonly kind: "none" };

const caregiverFor = (email: string, lastName: string, phone: string | null) =>
  Effect.gen(function* () {
    const existing = yield* (yield* Users).findByEmail(email);
    if (Option.isNone(existing)) {
      const invited = yield* inviteAccount({ email, type: "parent", firstName: "", lastName, phone });
      return { kind: "invited", parent: invited.user, url: invited.url, ttlDays: invited.ttlDays } satisfies Caregiver;
    }
    const account = existing.value;
    yield* sameWorkAsAnInvitation;
    // Someone invited before who never set a password has no account of their own yet: a fresh link.
    if (account.type === "parent" && isPendingInvitation(account)) {
      return { kind: "invited", parent: account, url: yield* invitationLink(account), ttlDays: invitationDays((yield* AccountsConfig).invitationTtlSeconds) } satisfies Caregiver;
    }
    // A parent's account is asked; any other account (staff, a physician, a blocked parent) is left alone.
    return (account.type === "parent" && !isBlocked(account) ? { kind: "asked", parent: account } : { kind: "refused", account }) satisfies Caregiver;
  });

/**
 * Adds a patient of the acting physician. A caregiver e-mail with no account invites the caregiver
 * (set-password link) and the baby is theirs once they accept; an existing parent's account is only
 * asked (a notification and an e-mail): the baby joins it when the parent accepts (ADR 56); any other
 * account is told by e-mail that nothing was added. The answer, and the work done, are the same whichever
 * it was. Every add with an e-mail counts against the practice's daily limit.
 */
export const addPatient = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* renamePhoneErrors(validateForm(PatientRequest(latestToday(yield* now)), blanksAsAbsent(input)));
    const acting = yield* actingPhysician(request);
    const email = request.email ? request.email.toLowerCase() : null;
    // Before any write: a refused add keeps nothing.
    if (email !== null) yield* throttleInvitations(acting.physician.id);
    const at = yield* now;
    const random = yield* Random;
    const config = yield* AccountsConfig;
    return yield* transaction(
      Effect.gen(function* () {
        const caregiver: Caregiver = email === null ? { kind: "none" } : yield* caregiverFor(email, request.last_name, orNull(request.phone));
        const baby: Baby = {
          id: random.identifier(),
          parentId: caregiver.kind === "invited" ? caregiver.parent.id : null,
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
        const mails: OutgoingMail[] = [];
        if (caregiver.kind === "invited") mails.push(caregiverInvitationMail(caregiver.parent.email, doctor, caregiver.url, caregiver.ttlDays, caregiver.parent.language));
        if (caregiver.kind === "refused") mails.push(nothingLinkedMail(caregiver.account.email, doctor, "patient", caregiver.account.language));
        if (caregiver.kind === "asked") {
          const asked: PatientLinkRequest = {
            id: random.identifier(),
            babyId: baby.id,
            physicianId: acting.physician.id,
            parentId: caregiver.parent.id,
            requestedBy: acting.caller.user.id,
            status: PENDING_CONSENT,
            createdAt: at,
            answeredAt: null,
          };
          yield* (yield* PatientLinkRequests).insert(asked);
          yield* notify(caregiver.parent.id, "link_requested", "patientLinkRequested", { doctor, baby: babyName(baby) }, asked.id);
          mails.push(patientLinkRequestMail(caregiver.parent.email, caregiver.parent.firstName, doctor, linkRequestsUrl(config.publicUrl), caregiver.parent.language));
        }
        yield* audit({
          action: "patient.added",
          actorId: acting.caller.user.id,
          subjectId: baby.id,
          onBehalfOf: acting.delegation === null ? null : acting.physician.id,
          details: { physician: acting.physician.id, caregiver: caregiver.kind === "invited" || caregiver.kind === "asked" ? caregiver.parent.id : null, invited: caregiver.kind === "invited", consent_requested: caregiver.kind === "asked" },
        });
        return { patient: presentPatient(baby, acting.physician), mails };
      }),
    ).pipe(Effect.tap(({ mails }) => sendAll(mails)), Effect.map(({ patient }) => patient));
  });
