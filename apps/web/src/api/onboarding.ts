import { request } from "./client.ts";
import type { OnboardingStep, UserStatus } from "@crown/core";
import type { Baby, PhysicianRef } from "./types.ts";

/** Baby registration, providers, BAA, disclaimer and quiz flags (spec section 7). */

export const NO_PHYSICIAN_ID = "no-physician";
export const NO_PHYSICIAN_NAME = "No Physician";

export interface BabyInput {
  physician_identifier: string;
  name?: string;
  first_name: string;
  middle_name?: string;
  last_name: string;
  date_of_birth: string;
  relation: string;
  referral_code?: string;
  gender?: string;
  ethnicity?: string;
  nicu_time?: number | string;
  previous_condition?: string;
  identifier?: string;
}

const withName = (b: BabyInput): BabyInput => ({
  ...b,
  name: [b.first_name, b.middle_name, b.last_name].filter((s) => s && s.trim()).join(" "),
});

export const registerBaby = (b: BabyInput) =>
  request<{ parent_status: UserStatus; step: OnboardingStep; baby?: Baby; identifier?: string }>("POST", "/user/register-baby", { json: withName(b) });
export const updateBaby = (b: BabyInput) => request<unknown>("POST", "/user/update-baby", { json: withName(b) });
export const addBaby = (b: BabyInput) => request<Baby>("POST", "/user/add-baby", { json: withName(b) });
export const updateChild = (b: BabyInput) => request<Baby>("POST", "/user/update-child", { json: withName(b) });

export const searchPhysicians = (name: string, signal?: AbortSignal) =>
  request<ReadonlyArray<PhysicianRef>>("GET", "/physicians", { auth: false, query: { name }, quiet: true, ...(signal ? { signal } : {}) });

export const staffPhysicians = () => request<ReadonlyArray<PhysicianRef>>("GET", "/physician/list");

/** The onboarding answers carry core's step, which the portal routes by. */
interface StepAnswer {
  step: OnboardingStep;
}

export const signBaa = (v: { identifier: string; email: string; name: string; covered_entity: string }) =>
  request<StepAnswer>("POST", "/user/sign-baa", { json: v });

export const acceptDisclaimer = () => request<StepAnswer>("POST", "/user/accept-disclaimer", { json: { accepted: true } });

export interface QuizGrade extends StepAnswer {
  passed: boolean;
  mode: "cap" | "nocap";
  score: number;
  total: number;
  is_quiz_time: boolean;
}

/** Sends the answers; the server grades them against the pool and records the attempt. */
export const submitQuiz = (v: { identifier?: string | undefined; mode: "cap" | "nocap"; answers: ReadonlyArray<{ image: string; answer: "GOOD" | "BAD" }> }) =>
  request<QuizGrade>("POST", "/user/update-quiz", { json: v });
