import type { Session } from "../machines/session.ts";

/** Where a signed-in user belongs, from the status and flags (spec section 4). */
export const homeFor = (s: Session): string => {
  if (s.userRole === "parent" && s.status === "AdditionalInformationRequired") return "/baby-details";
  if (s.userRole === "physician" && s.isFirstLogin && !s.baaSigned) return "/baa";
  if (s.userRole === "reviewer") return "/review";
  if (s.userRole === "admin") return "/admin";
  return "/dashboard";
};
