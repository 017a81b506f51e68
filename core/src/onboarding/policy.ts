import { Effect, Option } from "effect";
import { CurrentUser, type User, Users } from "../accounts/model.ts";
import { practiceVerified } from "../accounts/practice-verification.ts";
import { NotFound, ValidationFailed } from "../shared/errors.ts";
import { now } from "../shared/ports.ts";
import { latestToday } from "../shared/days.ts";
import { applyOnboardingEvent, factsOf, type OnboardingEvent } from "./lifecycle.ts";
import { type Baby, NO_PHYSICIAN, NO_PHYSICIAN_NAME } from "./model.ts";
import { type BabyRequest, FORM_MESSAGES } from "./schemas.ts";
import { isActive } from "../accounts/lifecycle.ts";

export const today = Effect.map(now, latestToday);

const isNoPhysician = (value: string) => value.toLowerCase() === NO_PHYSICIAN || value.toLowerCase() === NO_PHYSICIAN_NAME.toLowerCase();

/** The physician a parent chose: a registered, active physician, or null for 'No Physician'. */
export const resolvePhysician = (identifier: string) =>
  Effect.gen(function* () {
    if (isNoPhysician(identifier)) return null;
    const found = yield* (yield* Users).findById(identifier);
    // A practice still being verified is not in the search, and cannot be chosen by its identifier either (ADR 25).
    if (Option.isNone(found) || !isActive(found.value) || !practiceVerified(found.value)) {
      return yield* ValidationFailed.field("physician_identifier", FORM_MESSAGES.providerMissing);
    }
    return found.value;
  });

/** Blank optional fields mean "not given". */
export const blanksAsAbsent = (input: unknown): unknown =>
  input !== null && typeof input === "object" && !Array.isArray(input)
    ? Object.fromEntries(Object.entries(input).filter(([, v]) => !(typeof v === "string" && v.trim() === "")))
    : input;

export const orNull = <T>(value: T | undefined | null): T | null => (value === undefined || value === null || value === "" ? null : value);

export const babyFromRequest = (request: BabyRequest, ids: { id: string; parent: User; physician: User | null; at: Date }): Baby => ({
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

/** Applies an onboarding event to the caller's stored facts; null when the step does not allow it. */
export const step = (user: User, event: OnboardingEvent) => applyOnboardingEvent(factsOf(user), event);

/** The caller as stored now (an earlier step of this session may have changed it). */
export const freshCaller = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  return yield* Effect.flatMap((yield* Users).findById(user.id), Option.match({ onNone: () => Effect.fail(NotFound.of("User")), onSome: Effect.succeed }));
});
