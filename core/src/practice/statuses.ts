/**
 * The statuses a 403 names when a practice may not act yet. Plain constants in a module of their own,
 * so the portal can compare with them without loading core's Effect runtime on the sign-in page.
 */
export const BAA_REQUIRED_STATUS = "BaaRequired";
export const PRACTICE_BEING_VERIFIED = "PracticeBeingVerified";
