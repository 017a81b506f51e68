import type { UserType } from "../accounts/statuses.ts";

/**
 * The onboarding steps and the predicates other code routes by, as a plain module (no xstate): the
 * portal reads them without the onboarding machine (lifecycle.ts, which re-exports them; the sign-in
 * page's budget, ADR 74).
 */

export const ONBOARDING_STEPS = [
  "routing",
  "emailVerification",
  "babyDetails",
  "waitingApproval",
  "closed",
  "baa",
  "secondFactor",
  "disclaimer",
  "quiz",
  "done",
] as const;
export type OnboardingStep = Exclude<(typeof ONBOARDING_STEPS)[number], "routing">;

/** Who takes the quiz: the people who capture (parents, physicians and their staff). */
export const takesQuiz = (type: UserType) => type === "parent" || type === "physician" || type === "physician_staff";

// The steps other code routes by, as predicates, so no other file spells a step (ADR 41, ADR 68).
/** A parent registers a first baby next. */
export const needsBabyDetails = (step: OnboardingStep) => step === "babyDetails";
/** An administrator must approve the account before it goes on. */
export const waitsForApproval = (step: OnboardingStep) => step === "waitingApproval";
/** A physician signs the BAA next (nothing of the practice works before). */
export const baaDue = (step: OnboardingStep) => step === "baa";
/** The step of setting up two-step sign-in, for a client that learns of it from a 403 (issue 44). */
export const SECOND_FACTOR_STEP: OnboardingStep = "secondFactor";
/** The account sets up two-step sign-in next (physicians after the BAA, staff, reviewers, admins). */
export const secondFactorDue = (step: OnboardingStep) => step === "secondFactor";
/** The cap quiz is due next. */
export const quizDue = (step: OnboardingStep) => step === "quiz";
