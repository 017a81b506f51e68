import { Context, Effect, Option } from "effect";
import type { User } from "../accounts/model.ts";
import type { PageOf, PageRequest } from "../shared/page.ts";

/** Babies, physicians, the BAA, quizzes and marketing leads: what onboarding records. */

export const RELATIONS = ["mother", "father", "other"] as const;
export type Relation = (typeof RELATIONS)[number];
export const GENDERS = ["male", "female", "other"] as const;
export type Gender = (typeof GENDERS)[number];
/** The five race options of both specs, spelled as the client sends them. */
export const RACES = [
  "American Indian or Alaska Native",
  "Asian",
  "Black or African American",
  "Native Hawaiian or other Pacific Islander",
  "White",
] as const;
export type Race = (typeof RACES)[number];

/** The 'No Physician' choice of the provider search, as `physician_identifier` on the wire. */
export const NO_PHYSICIAN = "no-physician";
export const NO_PHYSICIAN_NAME = "No Physician";

/** A baby (a patient, seen from a practice). `physicianId` null: 'No Physician'. */
export interface Baby {
  readonly id: string;
  /** The caregiver's account; null for a patient added without a caregiver e-mail. */
  readonly parentId: string | null;
  readonly physicianId: string | null;
  readonly firstName: string;
  readonly middleName: string | null;
  readonly lastName: string;
  /** `YYYY-MM-DD`. */
  readonly dateOfBirth: string;
  readonly relation: Relation | null;
  readonly gender: Gender | null;
  readonly ethnicity: Race | null;
  /** Pre-term weeks, 0 to 16. */
  readonly nicuTime: number | null;
  readonly previousCondition: string | null;
  readonly referralCode: string | null;
  /** The caregiver's contact as a practice typed it (the parent's own for babies a parent registered). */
  readonly caregiverEmail: string | null;
  readonly caregiverPhone: string | null;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
export type BabyPatch = Partial<Omit<Baby, "id" | "createdAt" | "createdBy">>;

export const babyName = (b: Pick<Baby, "firstName" | "middleName" | "lastName">) =>
  [b.firstName, b.middleName, b.lastName].filter((part) => part !== null && part !== "").join(" ");


export interface BabiesPort {
  readonly insert: (baby: Baby) => Effect.Effect<void>;
  readonly update: (id: string, patch: BabyPatch) => Effect.Effect<void>;
  readonly findById: (id: string) => Effect.Effect<Option.Option<Baby>>;
  /** Oldest first: the first baby registered stays first. */
  readonly listByParent: (parentId: string) => Effect.Effect<ReadonlyArray<Baby>>;
  /** A physician's patients, newest first; `search` (already more than 2 characters) matches names and e-mail. */
  readonly listByPhysician: (physicianId: string, search: string | null, page: PageRequest) => Effect.Effect<PageOf<Baby>>;
}
export class Babies extends Context.Tag("crown/Babies")<Babies, BabiesPort>() {}

/** Active physicians, for the provider search. */
export interface PhysicianDirectoryPort {
  readonly search: (name: string, limit: number) => Effect.Effect<ReadonlyArray<User>>;
}
export class PhysicianDirectory extends Context.Tag("crown/PhysicianDirectory")<PhysicianDirectory, PhysicianDirectoryPort>() {}

/** The version of the agreement text the physician signed; a new text gets a new version. */
export const BAA_TEXT_VERSION = "crown-baa-2026-01";

export interface BaaSignature {
  readonly id: string;
  readonly userId: string;
  readonly name: string;
  readonly email: string;
  readonly coveredEntity: string;
  readonly textVersion: string;
  readonly ip: string | null;
  readonly signedAt: Date;
}
export interface BaaSignaturesPort {
  readonly insert: (signature: BaaSignature) => Effect.Effect<void>;
  readonly latestFor: (userId: string) => Effect.Effect<Option.Option<BaaSignature>>;
}
export class BaaSignatures extends Context.Tag("crown/BaaSignatures")<BaaSignatures, BaaSignaturesPort>() {}

export const QUIZ_MODES = ["cap", "nocap"] as const;
export type QuizMode = (typeof QUIZ_MODES)[number];
/** Pass mark: 8 right answers out of 10 (the same ratio for another length). */
export const QUIZ_PASS_MARK = { score: 8, total: 10 } as const;
export const quizPassed = (score: number, total: number) => score * QUIZ_PASS_MARK.total >= QUIZ_PASS_MARK.score * total;

export interface QuizAttempt {
  readonly id: string;
  readonly userId: string;
  readonly mode: QuizMode;
  readonly score: number;
  readonly total: number;
  readonly passed: boolean;
  readonly at: Date;
}
export interface QuizAttemptsPort {
  readonly insert: (attempt: QuizAttempt) => Effect.Effect<void>;
  readonly listFor: (userId: string) => Effect.Effect<ReadonlyArray<QuizAttempt>>;
}
export class QuizAttempts extends Context.Tag("crown/QuizAttempts")<QuizAttempts, QuizAttemptsPort>() {}

/** 'I dont have a kit (50% OFF)': who asked, for which baby and physician. */
export interface MarketingLead {
  readonly id: string;
  readonly parentId: string;
  readonly physicianName: string | null;
  readonly babyName: string | null;
  readonly createdAt: Date;
}
export interface MarketingLeadsPort {
  readonly insert: (lead: MarketingLead) => Effect.Effect<void>;
}
export class MarketingLeads extends Context.Tag("crown/MarketingLeads")<MarketingLeads, MarketingLeadsPort>() {}

/**
 * When each baby was last uploaded for. Implemented by the report pipeline; until it exists,
 * `UploadHistory.none` answers "never" and reminders follow the date of birth alone.
 */
export interface UploadHistoryPort {
  readonly lastUploads: (babyIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, Date>>;
}
export class UploadHistory extends Context.Tag("crown/UploadHistory")<UploadHistory, UploadHistoryPort>() {
  static readonly none: UploadHistoryPort = { lastUploads: () => Effect.succeed(new Map()) };
}
