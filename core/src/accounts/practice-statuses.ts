/**
 * The statuses a 403 names when a practice may not act yet, and a practice's verification as the
 * answers name it (ADR 25). Plain constants in a module of their own, so the portal can compare with
 * them (and show the same words) without loading core's Effect runtime on the sign-in page.
 */
export const BAA_REQUIRED_STATUS = "BaaRequired";
export const PRACTICE_BEING_VERIFIED = "PracticeBeingVerified";

export const PRACTICE_VERIFICATIONS = ["being_verified", "verified"] as const;
export type PracticeVerification = (typeof PRACTICE_VERIFICATIONS)[number];

/** What the physician is told while the practice is being verified: the 403's message and the portal's dashboard. */
export const PRACTICE_BEING_VERIFIED_MESSAGE = "Your practice is being verified. You can see patients and send invitations once Crown has verified it.";
