import type { Session } from "./machine.ts";
import { baaDue, needsBabyDetails, quizDue, secondFactorDue } from "@crown/core/onboarding/steps";

/** A physician who has not signed the BAA yet may only open the agreement (the server refuses the rest). */
export const mustSignBaa = (s: Session) => baaDue(s.step);

/** Two-step sign-in is set up before anything else but the BAA (issue 44; the server refuses the rest). */
export const mustSetUpSecondFactor = (s: Session) => secondFactorDue(s.step);

/**
 * A physician whose practice Crown has not verified yet (ADR 25): the server refuses every call about
 * patients, reports, staff and kiosks, so the portal shows the being-verified dashboard and makes
 * none of them (ADR 60). Read from the sign-in and profile answers, refreshed by that dashboard.
 */
export const practiceBeingVerified = (s: Session) => s.userRole === "physician" && s.practiceVerification === "being_verified";

/**
 * Where a signed-in user belongs, from core's onboarding step (core/src/onboarding/lifecycle.ts):
 * baby details, the BAA, the dashboard for the first-login disclaimer (which leads on to the quiz
 * instructions), the quiz instructions whenever a quiz is due; otherwise the dashboard (the
 * consoles for Crown's internal roles).
 */
export const homeFor = (s: Session): string => {
  if (needsBabyDetails(s.step)) return "/baby-details";
  if (mustSignBaa(s)) return "/baa";
  if (mustSetUpSecondFactor(s)) return "/two-step";
  if (s.userRole === "reviewer") return "/review";
  if (s.userRole === "admin") return "/admin";
  if (quizDue(s.step)) return "/quiz-instructions";
  return "/dashboard";
};

/** A signed-in route the guard sent the visitor away from (e.g. an e-mailed link to /link-requests), if it is safe to return to. */
export const returnPath = (state: unknown): string | null => {
  const from = state && typeof state === "object" ? (state as { from?: unknown }).from : undefined;
  return typeof from === "string" && from.startsWith("/") && !from.startsWith("//") && from !== "/" ? from : null;
};

/**
 * Where sign-in leads: onboarding steps (baby details, BAA, disclaimer, a due quiz) come first;
 * otherwise back to where the user was going. The login page and the guard that sends a signed-in
 * user away from it both ask this, so neither overrides the other.
 */
export const landingFor = (s: Session, state: unknown): string => {
  const home = homeFor(s);
  const back = returnPath(state);
  return back && !s.isFirstLogin && !mustSetUpSecondFactor(s) && (home === "/dashboard" || home === "/review" || home === "/admin") ? back : home;
};
