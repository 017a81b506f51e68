import { Effect, Option } from "effect";
import { isBlocked } from "../accounts/lifecycle.ts";
import { AccountsConfig, type User, Users } from "../accounts/model.ts";
import { notify, sendAll } from "../notifications/service.ts";
import { Babies, type Baby, babyName } from "../onboarding/model.ts";
import { Conflict, NotFound } from "../shared/errors.ts";
import type { NoticeKey, NoticeParams } from "../i18n/mails/notices.ts";
import { audit, auditAll, now, type OutgoingMail, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { displayName, requireActive } from "../accounts/access.ts";
import { consentAfter, consentCan, delegationConsent, PENDING_CONSENT } from "./consent.ts";
import { linkDeclinedMail } from "./emails.ts";
import { type Delegation, Delegations } from "../accounts/delegations.ts";
import { type PatientLinkRequest, PatientLinkRequests } from "./model.ts";
import { type LinkRequestView, presentPatientRequest, presentStaffOffer } from "./present.ts";
import { LinkAnswerRequest, MESSAGES } from "./requests.ts";
import { practiceVerified } from "../accounts/practice-verification.ts";

/**
 * The invitee's side of a practice's request (issue 15, ADR 56): a parent asked to take a baby into
 * their account, a staff member offered a practice's delegation. Only the invitee sees and answers it;
 * accepting links from the state as it is now (the baby still unlinked and the practice's, the practice
 * verified and not blocked), declining links nothing and tells the practice.
 */

/** Whether the practice may still link: verified, not blocked (decided now, not when it asked). */
const practiceMayLink = (physician: Option.Option<User>): physician is Option.Some<User> =>
  Option.isSome(physician) && practiceVerified(physician.value) && !isBlocked(physician.value);

/** A baby may join the parent's account only while no account holds it and it is still the asking practice's patient. */
const babyMayJoin = (baby: Option.Option<Baby>, request: PatientLinkRequest): baby is Option.Some<Baby> =>
  Option.isSome(baby) && baby.value.parentId === null && baby.value.physicianId === request.physicianId;

/** `GET /user/link-requests`: the caller's requests awaiting an answer that could still be accepted. Each baby shown is audited. */
export const myLinkRequests = Effect.gen(function* () {
  const caller = yield* requireActive("parent", "physician_staff");
  const users = yield* Users;
  const rows: LinkRequestView[] = [];
  if (caller.user.type === "parent") {
    const babies = yield* Babies;
    const shown: Array<{ request: PatientLinkRequest; baby: Baby }> = [];
    for (const request of yield* (yield* PatientLinkRequests).listForParent(caller.user.id, PENDING_CONSENT)) {
      const [baby, physician] = [yield* babies.findById(request.babyId), yield* users.findById(request.physicianId)];
      if (!babyMayJoin(baby, request) || !practiceMayLink(physician)) continue;
      shown.push({ request, baby: baby.value });
      rows.push(presentPatientRequest(request, baby.value, physician.value));
    }
    yield* auditAll(shown.map(({ request, baby }) => ({ action: "baby.link_request_viewed", actorId: caller.user.id, subjectId: baby.id, details: { request: request.id } })));
  } else {
    for (const offer of yield* (yield* Delegations).listOffered(caller.user.id)) {
      const physician = yield* users.findById(offer.physicianId);
      if (!practiceMayLink(physician)) continue;
      rows.push(presentStaffOffer(offer, physician.value));
    }
  }
  return { data: rows };
});

const answered = () => new Conflict({ message: MESSAGES.linkAnswered });

/** The caller's own patient request, or 404 (another parent's request does not exist for them). */
const ownPatientRequest = (parent: User, id: string) =>
  Effect.flatMap(PatientLinkRequests, (requests) => requests.findById(id)).pipe(
    Effect.flatMap((found) => (Option.isSome(found) && found.value.parentId === parent.id ? Effect.succeed(found.value) : NotFound.of("Request"))),
  );

/** The caller's own delegation offer, or 404. */
const ownOffer = (staff: User, id: string) =>
  Effect.flatMap(Delegations, (delegations) => delegations.findById(id)).pipe(
    Effect.flatMap((found) => (Option.isSome(found) && found.value.staffId === staff.id ? Effect.succeed(found.value) : NotFound.of("Request"))),
  );

/** The kind must be the caller's: a parent answers patient requests, a staff member offers. */
const callerFor = (kind: LinkAnswerRequest["kind"]) => requireActive(kind === "patient" ? "parent" : "physician_staff");

const acceptPatient = (parent: User, request: PatientLinkRequest, at: Date) =>
  Effect.gen(function* () {
    const next = consentAfter(request.status, "ACCEPT");
    if (next === null) return yield* answered();
    const babies = yield* Babies;
    const [baby, physician] = [yield* babies.findById(request.babyId), yield* (yield* Users).findById(request.physicianId)];
    if (!babyMayJoin(baby, request) || !practiceMayLink(physician)) return yield* new Conflict({ message: MESSAGES.linkNotAnswerable });
    if (!(yield* (yield* PatientLinkRequests).answer(request.id, request.status, next, at))) return yield* answered();
    yield* babies.update(baby.value.id, { parentId: parent.id, updatedAt: at });
    yield* notify(physician.value.id, "invitation_accepted", "patientLinkAccepted", { name: displayName(parent) || parent.email, baby: babyName(baby.value) }, baby.value.id);
    yield* audit({ action: "patient.link_accepted", actorId: parent.id, subjectId: baby.value.id, details: { request: request.id, physician: request.physicianId } });
    return [] as ReadonlyArray<OutgoingMail>;
  });

const acceptOffer = (staff: User, offer: Delegation, at: Date) =>
  Effect.gen(function* () {
    if (!consentCan(delegationConsent(offer), "ACCEPT")) return yield* answered();
    const physician = yield* (yield* Users).findById(offer.physicianId);
    if (!practiceMayLink(physician)) return yield* new Conflict({ message: MESSAGES.linkNotAnswerable });
    if (!(yield* (yield* Delegations).accept(offer.id, at))) return yield* answered();
    yield* notify(physician.value.id, "invitation_accepted", "staffLinkAccepted", { name: displayName(staff) || staff.email, email: staff.email }, staff.id);
    yield* audit({ action: "staff.accepted", actorId: staff.id, subjectId: staff.id, details: { delegation: offer.id, physician: offer.physicianId } });
    return [] as ReadonlyArray<OutgoingMail>;
  });

/** Declining links nothing; the practice is told in its bell and by an e-mail that carries no patient data. */
const tellDeclined = (physicianId: string, notice: { key: NoticeKey; params: NoticeParams }, subjectId: string) =>
  Effect.gen(function* () {
    const physician = yield* (yield* Users).findById(physicianId);
    if (Option.isNone(physician)) return [] as ReadonlyArray<OutgoingMail>;
    yield* notify(physician.value.id, "link_declined", notice.key, notice.params, subjectId);
    return [linkDeclinedMail(physician.value.email, physician.value.firstName, `${(yield* AccountsConfig).publicUrl}/`, physician.value.language)];
  });

const declinePatient = (parent: User, request: PatientLinkRequest, at: Date) =>
  Effect.gen(function* () {
    const next = consentAfter(request.status, "DECLINE");
    if (next === null || !(yield* (yield* PatientLinkRequests).answer(request.id, request.status, next, at))) return yield* answered();
    const baby = yield* (yield* Babies).findById(request.babyId);
    const notice: { key: NoticeKey; params: NoticeParams } = Option.isSome(baby)
      ? { key: "patientLinkDeclined", params: { baby: babyName(baby.value) } }
      : { key: "patientLinkDeclinedUnnamed", params: {} };
    yield* audit({ action: "patient.link_declined", actorId: parent.id, subjectId: request.babyId, details: { request: request.id, physician: request.physicianId } });
    return yield* tellDeclined(request.physicianId, notice, request.babyId);
  });

const declineOffer = (staff: User, offer: Delegation, at: Date) =>
  Effect.gen(function* () {
    if (!consentCan(delegationConsent(offer), "DECLINE")) return yield* answered();
    yield* (yield* Delegations).end(offer.id, at, staff.id);
    yield* audit({ action: "staff.declined", actorId: staff.id, subjectId: staff.id, details: { delegation: offer.id, physician: offer.physicianId } });
    return yield* tellDeclined(offer.physicianId, { key: "staffLinkDeclined", params: { email: staff.email } }, offer.id);
  });

const answer = (input: unknown, choice: "ACCEPT" | "DECLINE") =>
  Effect.gen(function* () {
    const request = yield* validate(LinkAnswerRequest, input);
    const caller = yield* callerFor(request.kind);
    const at = yield* now;
    const mails = yield* transaction(
      Effect.gen(function* () {
        if (request.kind === "patient") {
          const found = yield* ownPatientRequest(caller.user, request.identifier);
          return yield* choice === "ACCEPT" ? acceptPatient(caller.user, found, at) : declinePatient(caller.user, found, at);
        }
        const offer = yield* ownOffer(caller.user, request.identifier);
        return yield* choice === "ACCEPT" ? acceptOffer(caller.user, offer, at) : declineOffer(caller.user, offer, at);
      }),
    );
    yield* sendAll(mails);
    return { identifier: request.identifier, kind: request.kind, status: consentAfter(PENDING_CONSENT, choice) };
  });

/** `POST /user/link-requests/accept` {identifier, kind}. */
export const acceptLinkRequest = (input: unknown) => answer(input, "ACCEPT");
/** `POST /user/link-requests/decline` {identifier, kind}. */
export const declineLinkRequest = (input: unknown) => answer(input, "DECLINE");
