import { Effect, Option } from "effect";
import { isActive } from "../accounts/lifecycle.ts";
import { AccountsConfig, type User, Users } from "../accounts/model.ts";
import { notify, sendAll } from "../notifications/service.ts";
import { AddStaffRequest, validateForm } from "../onboarding/schemas.ts";
import { type StaffType } from "../accounts/staff-types.ts";
import { Forbidden, ValidationFailed } from "../shared/errors.ts";
import { audit, now, type OutgoingMail, Random, transaction } from "../shared/ports.ts";
import { actingPhysician } from "./access.ts";
import { physicianName } from "../accounts/access.ts";
import { delegationConsent, PENDING_CONSENT } from "./consent.ts";
import { nothingLinkedMail, staffInvitationMail, staffLinkRequestMail } from "./emails.ts";
import { invitationDays, invitationLink, inviteAccount, isPendingInvitation, linkRequestsUrl, sameWorkAsAnInvitation, throttleInvitations } from "./invitations.ts";
import { type Delegation, Delegations } from "../accounts/delegations.ts";
import { presentStaff } from "./present.ts";
import { blanksAsAbsent, MESSAGES } from "./requests.ts";

/**
 * Adds a staff member for the acting physician. A new address gets an invitation (set-password link)
 * and becomes physician_staff; an existing account is only offered the delegation (a notification and
 * an e-mail) and acts for the practice once it accepts (ADR 56). The answer is the same for any address
 * (an account that cannot be staff is offered nothing it could accept and is told so by e-mail: every
 * add sends one e-mail and hashes one password, so timing tells nothing either). Someone the
 * practice has added already, answered or not, is refused as its staff list shows them. A staff member
 * acting for the physician may add nurses only. Every add counts against the practice's daily limit.
 */
export const addStaff = (input: unknown, options: { nurseOnly?: boolean } = {}) =>
  Effect.gen(function* () {
    const request = yield* validateForm(AddStaffRequest, blanksAsAbsent(input));
    const acting = yield* actingPhysician(request);
    const staffType: StaffType = options.nurseOnly ? "nurse" : request.type ?? request.staff_type ?? "nurse";
    if (acting.delegation !== null && staffType !== "nurse") return yield* new Forbidden({ message: MESSAGES.staffOnlyNurses });
    const email = request.email.toLowerCase();
    const users = yield* Users;
    const delegations = yield* Delegations;
    const existing = yield* users.findByEmail(email);
    if (Option.isSome(existing)) {
      const live = yield* delegations.findLive(acting.physician.id, existing.value.id);
      if (Option.isSome(live)) {
        const waiting = delegationConsent(live.value) === PENDING_CONSENT || isPendingInvitation(existing.value);
        return yield* ValidationFailed.field("email", waiting ? MESSAGES.staffAsked : MESSAGES.staffAlready);
      }
    }
    // Before any write: a refused add keeps nothing.
    yield* throttleInvitations(acting.physician.id);
    const config = yield* AccountsConfig;
    const at = yield* now;
    return yield* transaction(
      Effect.gen(function* () {
        let staff: User;
        let invitationUrl: string | null = null;
        const found = yield* users.findByEmail(email);
        if (Option.isNone(found)) {
          const invited = yield* inviteAccount({ email, type: "physician_staff", firstName: request.first_name ?? "", lastName: request.last_name ?? "", phone: null });
          staff = invited.user;
          invitationUrl = invited.url;
        } else {
          staff = found.value;
          yield* sameWorkAsAnInvitation;
          if (staff.type === "physician_staff" && isPendingInvitation(staff)) invitationUrl = yield* invitationLink(staff);
        }
        const delegation: Delegation = {
          id: (yield* Random).identifier(),
          physicianId: acting.physician.id,
          staffId: staff.id,
          staffType,
          createdBy: acting.caller.user.id,
          createdAt: at,
          // An invitee accepts by setting a password; an account that already exists must say yes first.
          acceptedAt: invitationUrl !== null ? at : null,
          endedAt: null,
          endedBy: null,
        };
        yield* delegations.insert(delegation);
        const doctor = physicianName(acting.physician);
        const mails: OutgoingMail[] = [];
        if (invitationUrl !== null) {
          mails.push(staffInvitationMail(staff.email, doctor, staffType, invitationUrl, invitationDays(config.invitationTtlSeconds), staff.language));
        } else if (staff.type === "physician_staff" && isActive(staff)) {
          yield* notify(staff.id, "link_requested", "staffLinkRequested", { doctor }, delegation.id);
          mails.push(staffLinkRequestMail(staff.email, staff.firstName, doctor, staffType, linkRequestsUrl(config.publicUrl), staff.language));
        } else {
          mails.push(nothingLinkedMail(staff.email, doctor, "staff", staff.language));
        }
        yield* audit({
          action: invitationUrl !== null ? "staff.added" : "staff.offered",
          actorId: acting.caller.user.id,
          subjectId: staff.id,
          onBehalfOf: acting.delegation === null ? null : acting.physician.id,
          details: { physician: acting.physician.id, staff_type: staffType, delegation: delegation.id },
        });
        return { member: presentStaff({ delegation, user: staff }), mails };
      }),
    ).pipe(Effect.tap(({ mails }) => sendAll(mails)), Effect.map(({ member }) => member));
  });
