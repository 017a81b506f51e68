import { Effect, Option } from "effect";
import { type User, Users } from "../accounts/model.ts";
import { physicianName } from "../accounts/access.ts";
import { Delegations } from "../accounts/delegations.ts";
import { practiceVerification } from "../accounts/practice-verification.ts";
import { factsOf, onboardingFlags } from "./lifecycle.ts";
import { Babies, type Baby, babyName, NO_PHYSICIAN } from "./model.ts";
import { isBlocked } from "../accounts/lifecycle.ts";

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

/**
 * What the sign-in and profile answers add for a user: babies (parents), physicians (staff), onboarding
 * flags, and a physician's practice verification as it is now (the portal shows the being-verified
 * dashboard from it, ADR 60).
 */
export const sessionExtras = (user: User) =>
  Effect.gen(function* () {
    const flags = onboardingFlags(factsOf(user));
    const babies = user.type === "parent" ? yield* presentBabies(yield* (yield* Babies).listByParent(user.id)) : [];
    const physicians = user.type === "physician_staff" ? yield* physiciansOfStaff(user) : [];
    const practice = user.type === "physician" ? { practice_verification: practiceVerification(user) } : {};
    return { flags, babies, physicians, practice };
  });

/** The physicians a staff member works for (live delegations), first delegated first. */
export const physiciansOfStaff = (staff: User) =>
  Effect.gen(function* () {
    const delegations = yield* (yield* Delegations).listActiveForStaff(staff.id);
    const physicians = yield* physiciansById(delegations.map((d) => d.physicianId));
    return delegations.flatMap((d) => {
      const physician = physicians.get(d.physicianId);
      return physician && !isBlocked(physician) ? [{ ...physicianRef(physician), first_name: physician.firstName, last_name: physician.lastName, staff_type: d.staffType }] : [];
    });
  });

/** A BAA signature as the answers show it. */
export const presentSignature = (s: { name: string; email: string; coveredEntity: string; textVersion: string; signedAt: Date }) => ({
  name: s.name,
  email: s.email,
  covered_entity: s.coveredEntity,
  text_version: s.textVersion,
  signed_at: s.signedAt.toISOString(),
});
