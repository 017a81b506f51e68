import type { Session } from "../machines/session.ts";

/** Roles that take the capture quiz (the server's is_quiz_time is only ever true for them). */
const takesQuiz = (s: Session) => s.userRole === "parent" || s.userRole === "physician" || s.userRole === "physician_staff";

/** A physician who has not signed the BAA yet may only open the agreement (the server refuses the rest). */
export const mustSignBaa = (s: Session) => s.userRole === "physician" && !s.baaSigned;

/**
 * Where a signed-in user belongs, from the status and flags (spec section 4): baby details while a
 * parent's information is missing; the BAA on a physician's first login; the dashboard on a first
 * login (its disclaimer leads on to the quiz instructions); the quiz instructions whenever a quiz is
 * due; otherwise the dashboard (the consoles for Crown's internal roles).
 */
export const homeFor = (s: Session): string => {
  if (s.userRole === "parent" && s.status === "AdditionalInformationRequired") return "/baby-details";
  if (mustSignBaa(s)) return "/baa";
  if (s.userRole === "reviewer") return "/review";
  if (s.userRole === "admin") return "/admin";
  if (s.isFirstLogin && !s.disclaimerAccepted) return "/dashboard";
  if (takesQuiz(s) && s.isQuizTime && !s.quizCompleted) return "/quiz-instructions";
  return "/dashboard";
};
