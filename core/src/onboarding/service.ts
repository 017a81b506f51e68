/**
 * The onboarding feature's use cases, one per file, under the one name the adapters call
 * (`Onboarding.registerBaby`, ...). Steps live in lifecycle.ts; the account's status is the account
 * machine's (accounts/lifecycle.ts), which onboarding asks and never overrules.
 */
export { MESSAGES } from "./messages.ts";
export { type PhysicianRef, physicianRef, type PresentedBaby, presentBaby, presentBabies, physiciansById, physiciansOfStaff, sessionExtras } from "./present.ts";
export { type AccountProfile, type ProfileAnswer, profileAnswer, type SignInAnswer, signInAnswer } from "./session-answers.ts";
export { resolvePhysician } from "./policy.ts";
export { addBaby, registerBaby } from "./register-baby.ts";
export { updateBaby } from "./update-baby.ts";
export { myBabies } from "./my-babies.ts";
export { addMarketingInfo } from "./marketing.ts";
export { PHYSICIAN_SEARCH_LIMIT, PHYSICIAN_SEARCH_LIMIT_PER_ADDRESS, searchPhysicians } from "./search-physicians.ts";
export { myPhysicians } from "./my-physicians.ts";
export { onboardingStatus } from "./onboarding-status.ts";
export { acceptDisclaimer } from "./accept-disclaimer.ts";
export { signBaa } from "./sign-baa.ts";
export { updateQuiz } from "./update-quiz.ts";
export { listPendingApprovals } from "./pending-approvals.ts";
export { approve, approveAccount } from "./approve-account.ts";
export { rejectAccount } from "./reject-account.ts";
export { type Reminder, reminders, remindersFor } from "./reminders.ts";
export { profileAfter, readProfile, signIn, signInWithPasskey } from "./sign-in.ts";
