import type { UserType } from "./lifecycle.ts";

/**
 * Who must prove a second factor before seeing any patient or console (issue 44): the portal's staff
 * and Crown's own. Plain (no Effect): the onboarding machine and the portal import it.
 */
export const secondFactorRequired = (type: UserType): boolean =>
  type === "physician" || type === "physician_staff" || type === "reviewer" || type === "admin";
