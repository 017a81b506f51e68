import { Effect, Either, Option } from "effect";
import { AccountsConfig, CurrentUser, type User, Users } from "../accounts/model.ts";
import { practiceVerified } from "../practice/verification.ts";
import { changeStatus } from "../accounts/service.ts";
import { accountCan } from "../accounts/lifecycle.ts";
import { notify, pageOf, sendAll } from "../notifications/service.ts";
import { ACCESS_MESSAGES, physicianName, requireActive, requireType } from "../practice/access.ts";
import { Delegations } from "../practice/model.ts";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "../shared/errors.ts";
import { audit, auditAll, now, Random, RequestContext, transaction } from "../shared/ports.ts";
import { clientAddress, throttle } from "../shared/throttle.ts";
import { latestToday } from "./dates.ts";
import { approvedMail, rejectedMail } from "./emails.ts";
import { applyOnboardingEvent, factsOf, type OnboardingEvent, onboardingCan, onboardingFlags, onboardingStep } from "./lifecycle.ts";
import {
  Babies,
  type Baby,
  type BabyPatch,
  BAA_TEXT_VERSION,
  BaaSignatures,
  babyName,
  MarketingLeads,
  NO_PHYSICIAN,
  NO_PHYSICIAN_NAME,
  PhysicianDirectory,
  type QuizMode,
  QuizAttempts,
} from "./model.ts";
import { gradeQuiz, QuizAnswerKey } from "./quiz.ts";
import {
  AcceptDisclaimerRequest,
  BabyRequest,
  BabyUpdateRequest,
  FORM_MESSAGES,
  IdentifierRequest,
  MarketingRequest,
  PhysicianSearchQuery,
  SignBaaRequest,
  UpdateQuizRequest,
  validateForm,
} from "./schemas.ts";

export const MESSAGES = {
  babyRegistered: "Baby details saved successfully",
  waitingApproval: ACCESS_MESSAGES.waitingApproval,
  childAdded: "Child added successfully",
  childUpdated: "Child details updated successfully",
  babies: "Babies fetched successfully",
  marketing: "Thank you! We will get in touch with your kit offer.",
  physicians: "Physicians fetched successfully",
  disclaimerAccepted: "Disclaimer accepted successfully",
  baaSigned: "Business Associate Agreement signed successfully",
  baaPhysiciansOnly: "Only physicians sign the Business Associate Agreement.",
  baaEmailMismatch: "The e-mail does not match your account.",
  quizPassed: "Congrats! You passed the quiz.",
  quizFailed: "Better Luck Next Time!",
  pending: "Accounts waiting for approval fetched successfully",
  approved: "Account approved successfully",
  rejected: "Account rejected successfully",
  onboarding: "Onboarding status fetched successfully",
} as const;

// ---- Presenting -------------------------------------------------------------------------------------

export interface PhysicianRef {
  readonly identifier: string;
  readonly name: string;
}
export const physicianRef = (user: User): PhysicianRef => ({ identifier: user.id, name: physicianName(user) });

/** A baby as both specs read it. */
export const presentBaby = (baby: Baby, physician: User | null) => ({
  identifier: baby.id,
  name: babyName(baby),
  first_name: baby.firstName,
  middle_name: baby.middleName,
  last_name: baby.lastName,
  date_of_birth: baby.dateOfBirth,
  relation: baby.relation,
  gender: baby.gender,
  ethnicity: baby.ethnicity,
  nicu_time: baby.nicuTime,
  previous_condition: baby.previousCondition,
  referral_code: baby.referralCode,
  physician_identifier: physician ? physician.id : NO_PHYSICIAN,
  physician: physician ? physicianRef(physician) : null,
});
export type PresentedBaby = ReturnType<typeof presentBaby>;

/** Looks up each distinct physician once. */
export const physiciansById = (ids: ReadonlyArray<string | null>) =>
  Effect.gen(function* () {
    const users = yield* Users;
    const found = new Map<string, User>();
    for (const id of new Set(ids.filter((x): x is string => x !== null))) {
      const user = yield* users.findById(id);
      if (Option.isSome(user)) found.set(id, user.value);
    }
    return found;
  });

export const presentBabies = (babies: ReadonlyArray<Baby>) =>
  Effect.map(physiciansById(babies.map((b) => b.physicianId)), (physicians) =>
    babies.map((b) => presentBaby(b, b.physicianId ? physicians.get(b.physicianId) ?? null : null)),
  );

/** What the sign-in and profile answers add for a user: babies (parents), physicians (staff), onboarding flags. */
export const sessionExtras = (user: User) =>
  Effect.gen(function* () {
    const flags = onboardingFlags(factsOf(user));
    const babies = user.type === "parent" ? yield* presentBabies(yield* (yield* Babies).listByParent(user.id)) : [];
    const physicians = user.type === "physician_staff" ? yield* physiciansOfStaff(user) : [];
    return { flags, babies, physicians };
  });

/** The physicians a staff member works for (live delegations), first delegated first. */
export const physiciansOfStaff = (staff: User) =>
  Effect.gen(function* () {
    const delegations = yield* (yield* Delegations).listActiveForStaff(staff.id);
    const physicians = yield* physiciansById(delegations.map((d) => d.physicianId));
    return delegations.flatMap((d) => {
      const physician = physicians.get(d.physicianId);
      return physician && physician.status !== "Blocked" ? [{ ...physicianRef(physician), first_name: physician.firstName, last_name: physician.lastName, staff_type: d.staffType }] : [];
    });
  });

// ---- Babies -----------------------------------------------------------------------------------------

const today = Effect.map(now, latestToday);

const isNoPhysician = (value: string) => value.toLowerCase() === NO_PHYSICIAN || value.toLowerCase() === NO_PHYSICIAN_NAME.toLowerCase();

/** The physician a parent chose: a registered, active physician, or null for 'No Physician'. */
export const resolvePhysician = (identifier: string) =>
  Effect.gen(function* () {
    if (isNoPhysician(identifier)) return null;
    const found = yield* (yield* Users).findById(identifier);
    // A practice still being verified is not in the search, and cannot be chosen by its identifier either (ADR 25).
    if (Option.isNone(found) || found.value.status !== "Active" || !practiceVerified(found.value)) {
      return yield* ValidationFailed.field("physician_identifier", FORM_MESSAGES.providerMissing);
    }
    return found.value;
  });

/** Blank optional fields mean "not given". */
const blanksAsAbsent = (input: unknown): unknown =>
  input !== null && typeof input === "object" && !Array.isArray(input)
    ? Object.fromEntries(Object.entries(input).filter(([, v]) => !(typeof v === "string" && v.trim() === "")))
    : input;

const orNull = <T>(value: T | undefined | null): T | null => (value === undefined || value === null || value === "" ? null : value);

const babyFromRequest = (request: BabyRequest, ids: { id: string; parent: User; physician: User | null; at: Date }): Baby => ({
  id: ids.id,
  parentId: ids.parent.id,
  physicianId: ids.physician?.id ?? null,
  firstName: request.first_name,
  middleName: orNull(request.middle_name),
  lastName: request.last_name,
  dateOfBirth: request.date_of_birth,
  relation: request.relation,
  gender: orNull(request.gender),
  ethnicity: orNull(request.ethnicity),
  nicuTime: orNull(request.nicu_time),
  previousCondition: orNull(request.previous_condition),
  referralCode: orNull(request.referral_code),
  caregiverEmail: ids.parent.email,
  caregiverPhone: ids.parent.phone,
  createdBy: ids.parent.id,
  createdAt: ids.at,
  updatedAt: ids.at,
});

/**
 * The first baby of a parent (also any later one: a parent who is Active already simply adds it).
 * A baby with 'No Physician' puts the account in WaitingApproval until an admin has looked at it
 * (api-contract.md: a physician who is not on Crown); the answer carries `parent_status`.
 */
export const registerBaby = (input: unknown) =>
  Effect.gen(function* () {
    const caller = yield* requireType("parent");
    const request = yield* validateForm(BabyRequest(yield* today), blanksAsAbsent(input));
    const physician = yield* resolvePhysician(request.physician_identifier);
    const at = yield* now;
    const id = (yield* Random).identifier();
    return yield* transaction(
      Effect.gen(function* () {
        const user = Option.getOrElse(yield* (yield* Users).findById(caller.user.id), () => caller.user);
        const needsApproval = physician === null;
        // Onboarding says whether this is the first baby; the account machine alone moves the status.
        const first = onboardingCan(factsOf(user), { type: "FIRST_BABY_REGISTERED", needsApproval });
        if (!first && user.status === "WaitingApproval") {
          return yield* new Forbidden({ message: ACCESS_MESSAGES.waitingApproval, status: "WaitingApproval" });
        }
        if (!first && user.status !== "Active") return yield* new Forbidden({ message: ACCESS_MESSAGES.notActive, status: user.status });
        const baby = babyFromRequest(request, { id, parent: user, physician, at });
        yield* (yield* Babies).insert(baby);
        const status = first ? (yield* changeStatus(user.id, { type: "FIRST_BABY_REGISTERED", needsApproval }, user.id)).status : user.status;
        yield* audit({ action: "baby.registered", actorId: user.id, subjectId: baby.id, details: { first, physician: physician?.id ?? null } });
        const message = status === "WaitingApproval" ? MESSAGES.waitingApproval : first ? MESSAGES.babyRegistered : MESSAGES.childAdded;
        // The step the portal routes by next (api-contract.md's fields unchanged; `step` is added).
        const next = onboardingStep(factsOf({ ...user, status }));
        return { message, results: { parent_status: status, step: next, baby: presentBaby(baby, physician) } };
      }),
    );
  });

/** Another child of an Active parent (a parent still at the first baby registers it instead). */
export const addBaby = (input: unknown) =>
  Effect.gen(function* () {
    const { user } = yield* CurrentUser;
    if (user.type === "parent" && onboardingStep(factsOf(user)) === "babyDetails") return yield* registerBaby(input);
    yield* requireActive("parent");
    return yield* registerBaby(input);
  });

/** update-baby and update-child: the parent edits one of their own babies (another's answers 404). */
export const updateBaby = (input: unknown) =>
  Effect.gen(function* () {
    const caller = yield* requireType("parent");
    if (caller.user.status !== "Active" && caller.user.status !== "WaitingApproval" && caller.user.status !== "AdditionalInformationRequired") {
      return yield* new Forbidden({ message: ACCESS_MESSAGES.notActive, status: caller.user.status });
    }
    const request = yield* validateForm(BabyUpdateRequest(yield* today), blanksAsAbsent(input));
    const babies = yield* Babies;
    const existing = yield* babies.findById(request.identifier);
    if (Option.isNone(existing) || existing.value.parentId !== caller.user.id) return yield* NotFound.of("Baby");
    const physician = yield* resolvePhysician(request.physician_identifier);
    const patch: BabyPatch = {
      physicianId: physician?.id ?? null,
      firstName: request.first_name,
      middleName: orNull(request.middle_name),
      lastName: request.last_name,
      dateOfBirth: request.date_of_birth,
      ...(request.relation ? { relation: request.relation } : {}),
      gender: orNull(request.gender),
      ethnicity: orNull(request.ethnicity),
      nicuTime: orNull(request.nicu_time),
      previousCondition: orNull(request.previous_condition),
      referralCode: orNull(request.referral_code),
      updatedAt: yield* now,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* babies.update(existing.value.id, patch);
        yield* audit({ action: "baby.updated", actorId: caller.user.id, subjectId: existing.value.id, details: { fields: Object.keys(patch) } });
      }),
    );
    return presentBaby({ ...existing.value, ...patch }, physician);
  });

export const myBabies = Effect.gen(function* () {
  const caller = yield* requireType("parent");
  const babies = yield* (yield* Babies).listByParent(caller.user.id);
  // A read of a child's data: one row per baby, one insert.
  yield* auditAll(babies.map((b) => ({ action: "baby.listed", actorId: caller.user.id, subjectId: b.id })));
  return yield* presentBabies(babies);
});

export const addMarketingInfo = (input: unknown) =>
  Effect.gen(function* () {
    const caller = yield* requireType("parent");
    const request = yield* validateForm(MarketingRequest, blanksAsAbsent(input));
    if (request.parent_identifier && request.parent_identifier !== caller.user.id) return yield* NotFound.of("Parent");
    const lead = {
      id: (yield* Random).identifier(),
      parentId: caller.user.id,
      physicianName: orNull(request.physician_name),
      babyName: orNull(request.baby_name),
      createdAt: yield* now,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* MarketingLeads).insert(lead);
        yield* audit({ action: "marketing.kit_offer_requested", actorId: caller.user.id, subjectId: caller.user.id });
      }),
    );
    return { identifier: lead.id, parent_identifier: lead.parentId, physician_name: lead.physicianName, baby_name: lead.babyName };
  });

// ---- Physicians ---------------------------------------------------------------------------------------

export const PHYSICIAN_SEARCH_LIMIT = 20;

/** The provider search: active physicians whose name contains the text, then the 'No Physician' choice. */
/** The search needs no token, so it is limited per client address (60 a minute). */
export const PHYSICIAN_SEARCH_LIMIT_PER_ADDRESS = { limit: 60, windowSeconds: 60 } as const;

export const searchPhysicians = (query: unknown) =>
  Effect.gen(function* () {
    const { name } = yield* validateForm(PhysicianSearchQuery, query);
    yield* throttle(`physician-search:addr:${yield* clientAddress}`, PHYSICIAN_SEARCH_LIMIT_PER_ADDRESS);
    // Names are shown as "Dr. First Last"; a typed "Dr." prefix is not part of the stored name.
    const text = name.replace(/^dr\.?\s+/i, "") || name;
    const found = yield* (yield* PhysicianDirectory).search(text, PHYSICIAN_SEARCH_LIMIT);
    return [...found.map(physicianRef), { identifier: NO_PHYSICIAN, name: NO_PHYSICIAN_NAME }];
  });

/** GET /physician/list: the physicians a staff member works for (a physician: themself). */
export const myPhysicians = Effect.gen(function* () {
  const caller = yield* requireActive("physician", "physician_staff");
  if (caller.user.type === "physician") return [{ ...physicianRef(caller.user), first_name: caller.user.firstName, last_name: caller.user.lastName, staff_type: null }];
  return yield* physiciansOfStaff(caller.user);
});

// ---- First login: disclaimer, BAA, quiz ------------------------------------------------------------

/** Applies an onboarding event to the caller's stored facts; null when the step does not allow it. */
const step = (user: User, event: OnboardingEvent) => applyOnboardingEvent(factsOf(user), event);

const freshCaller = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  return yield* Effect.flatMap((yield* Users).findById(user.id), Option.match({ onNone: () => Effect.fail(NotFound.of("User")), onSome: Effect.succeed }));
});

export const onboardingStatus = Effect.gen(function* () {
  const user = yield* freshCaller;
  const signature = user.type === "physician" ? yield* (yield* BaaSignatures).latestFor(user.id) : Option.none();
  return {
    status: user.status,
    ...onboardingFlags(factsOf(user)),
    baa: Option.match(signature, {
      onNone: () => null,
      onSome: (s) => ({ name: s.name, covered_entity: s.coveredEntity, text_version: s.textVersion, signed_at: s.signedAt.toISOString() }),
    }),
    baa_text_version: BAA_TEXT_VERSION,
  };
});

export const acceptDisclaimer = (input: unknown) =>
  Effect.gen(function* () {
    yield* validateForm(AcceptDisclaimerRequest, input);
    const user = yield* freshCaller;
    if (user.disclaimerAcceptedAt !== null) return onboardingFlags(factsOf(user));
    const next = step(user, { type: "DISCLAIMER_ACCEPTED" });
    if (next === null) {
      return yield* user.status === "WaitingApproval"
        ? new Forbidden({ message: ACCESS_MESSAGES.waitingApproval, status: "WaitingApproval" })
        : new Conflict({ message: `The disclaimer cannot be accepted while the account status is ${user.status}.` });
    }
    const at = yield* now;
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* Users).update(user.id, { disclaimerAcceptedAt: at });
        yield* audit({ action: "onboarding.disclaimer_accepted", actorId: user.id, subjectId: user.id });
      }),
    );
    return onboardingFlags(next.facts);
  });

/** The physician's BAA signature, stored with the agreement text version; signing again answers the first signature. */
export const signBaa = (input: unknown) =>
  Effect.gen(function* () {
    const { user: current } = yield* CurrentUser;
    if (current.type !== "physician") return yield* new Forbidden({ message: MESSAGES.baaPhysiciansOnly });
    const request = yield* validateForm(SignBaaRequest, blanksAsAbsent(input));
    if (request.identifier && request.identifier !== current.id) return yield* NotFound.of("User");
    if (request.email && request.email.toLowerCase() !== current.email) return yield* ValidationFailed.field("email", MESSAGES.baaEmailMismatch);
    const user = yield* freshCaller;
    const signatures = yield* BaaSignatures;
    if (user.baaSignedAt !== null) {
      const existing = yield* signatures.latestFor(user.id);
      return { ...onboardingFlags(factsOf(user)), signature: Option.getOrNull(Option.map(existing, presentSignature)) };
    }
    const next = step(user, { type: "BAA_SIGNED" });
    if (next === null) return yield* new Conflict({ message: `The agreement cannot be signed while the account status is ${user.status}.` });
    const request_ = yield* Effect.serviceOption(RequestContext);
    const signature = {
      id: (yield* Random).identifier(),
      userId: user.id,
      name: request.name,
      email: user.email,
      coveredEntity: request.covered_entity,
      textVersion: BAA_TEXT_VERSION,
      ip: Option.isSome(request_) ? request_.value.ip : null,
      signedAt: yield* now,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* signatures.insert(signature);
        yield* (yield* Users).update(user.id, { baaSignedAt: signature.signedAt });
        yield* audit({ action: "onboarding.baa_signed", actorId: user.id, subjectId: user.id, details: { text_version: BAA_TEXT_VERSION, covered_entity: request.covered_entity } });
      }),
    );
    return { ...onboardingFlags(next.facts), signature: presentSignature(signature) };
  });

const presentSignature = (s: { name: string; email: string; coveredEntity: string; textVersion: string; signedAt: Date }) => ({
  name: s.name,
  email: s.email,
  covered_entity: s.coveredEntity,
  text_version: s.textVersion,
  signed_at: s.signedAt.toISOString(),
});

/**
 * Grades and records a quiz: the server scores the client's answers against the pool's key, so a
 * score is never taken on trust. Every attempt is stored with its mode and score; a pass of the
 * cap quiz (8 of 10, ADR 0011) clears `is_quiz_time`, a pass of the no-cap quiz does not.
 */
export const updateQuiz = (input: unknown) =>
  Effect.gen(function* () {
    const { user: current } = yield* CurrentUser;
    const request = yield* validateForm(UpdateQuizRequest, blanksAsAbsent(input));
    if (request.identifier && request.identifier !== current.id) return yield* NotFound.of("User");
    const mode: QuizMode = request.mode;
    const grade = yield* Either.match(gradeQuiz(yield* QuizAnswerKey, mode, request.answers), { onLeft: Effect.fail, onRight: Effect.succeed });
    const user = yield* freshCaller;
    const next = step(user, { type: grade.passed ? "QUIZ_PASSED" : "QUIZ_FAILED", mode });
    if (next === null) {
      return yield* user.status === "WaitingApproval"
        ? new Forbidden({ message: ACCESS_MESSAGES.waitingApproval, status: "WaitingApproval" })
        : new Forbidden({ message: ACCESS_MESSAGES.notAllowed });
    }
    const at = yield* now;
    const { score, total, passed } = grade;
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* QuizAttempts).insert({ id: (yield* Random).identifier(), userId: user.id, mode, score, total, passed, at });
        if (next.facts.quizPassed && user.quizPassedAt === null) yield* (yield* Users).update(user.id, { quizPassedAt: at });
        yield* audit({ action: passed ? "quiz.passed" : "quiz.failed", actorId: user.id, subjectId: user.id, details: { mode, score, total } });
      }),
    );
    return {
      message: passed ? MESSAGES.quizPassed : MESSAGES.quizFailed,
      results: { passed, mode, score, total, ...onboardingFlags(next.facts) },
    };
  });

// ---- Approvals (admins) ------------------------------------------------------------------------------

const requireAdmin = requireActive("admin");

export const listPendingApprovals = (page: number, perPage = 10) =>
  Effect.gen(function* () {
    yield* requireAdmin;
    const pending = [...(yield* (yield* Users).listByStatus("WaitingApproval"))].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const slice = pending.slice((page - 1) * perPage, page * perPage);
    const data = [];
    for (const user of slice) {
      const babies = user.type === "parent" ? yield* presentBabies(yield* (yield* Babies).listByParent(user.id)) : [];
      data.push({
        identifier: user.id,
        first_name: user.firstName,
        last_name: user.lastName,
        email: user.email,
        phone: user.phone,
        type: user.type,
        status: user.status,
        created_at: user.createdAt.toISOString(),
        babies,
      });
    }
    return pageOf(data, pending.length, page, perPage);
  });

/** Approves a WaitingApproval account: status, notification and e-mail in one transaction. */
export const approveAccount = (input: unknown) =>
  Effect.gen(function* () {
    const admin = yield* requireAdmin;
    const { identifier } = yield* validateForm(IdentifierRequest, input);
    return yield* approve(identifier, admin.user.id);
  });

/** The approval itself, for the admin API and `crown user:approve`. */
export const approve = (userId: string, actorId: string | null) =>
  Effect.gen(function* () {
    const config = yield* AccountsConfig;
    const { result, mail } = yield* transaction(
      Effect.gen(function* () {
        const user = yield* Effect.flatMap((yield* Users).findById(userId), Option.match({ onNone: () => Effect.fail(NotFound.of("User")), onSome: Effect.succeed }));
        if (!accountCan(user, { type: "APPROVED" })) return yield* new Conflict({ message: `This account is not waiting for approval (status ${user.status}).` });
        const changed = yield* changeStatus(user.id, { type: "APPROVED" }, actorId);
        yield* notify(user.id, "account_approved", "Your account has been approved. Welcome to Crown!", user.id);
        return {
          result: { identifier: changed.id, email: changed.email, status: changed.status },
          mail: approvedMail(user.email, user.firstName, `${config.publicUrl}/`),
        };
      }),
    );
    yield* sendAll([mail]);
    return result;
  });

export const rejectAccount = (input: unknown) =>
  Effect.gen(function* () {
    const admin = yield* requireAdmin;
    const { identifier, reason } = yield* validateForm(IdentifierRequest, input);
    const { result, mail } = yield* transaction(
      Effect.gen(function* () {
        const user = yield* Effect.flatMap((yield* Users).findById(identifier), Option.match({ onNone: () => Effect.fail(NotFound.of("User")), onSome: Effect.succeed }));
        if (!accountCan(user, { type: "REJECTED" })) return yield* new Conflict({ message: `This account is not waiting for approval (status ${user.status}).` });
        const changed = yield* changeStatus(user.id, { type: "REJECTED" }, admin.user.id);
        // A rejected account cannot sign in, so the e-mail is its only news.
        return { result: { identifier: changed.id, email: changed.email, status: changed.status }, mail: rejectedMail(user.email, user.firstName, reason ?? null) };
      }),
    );
    yield* sendAll([mail]);
    return result;
  });

