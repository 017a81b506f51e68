import { ACCESS_MESSAGES } from "../accounts/access.ts";

/** The onboarding calls' answers and refusals, in the specs' words. */
export const MESSAGES = {
  babyRegistered: "Baby details saved successfully",
  waitingApproval: ACCESS_MESSAGES.waitingApproval,
  childAdded: "Child added successfully",
  childUpdated: "Child details updated successfully",
  babies: "Babies fetched successfully",
  marketing: "Thank you! We will get in touch with your kit offer.",
  physicians: "Physicians fetched successfully",
  disclaimerAccepted: "Disclaimer accepted successfully",
  baaSigned: "Business Associate Agreement signed successfully",
  baaPhysiciansOnly: "Only physicians sign the Business Associate Agreement.",
  baaEmailMismatch: "The e-mail does not match your account.",
  quizPassed: "Congrats! You passed the quiz.",
  quizFailed: "Better Luck Next Time!",
  pending: "Accounts waiting for approval fetched successfully",
  approved: "Account approved successfully",
  rejected: "Account rejected successfully",
  onboarding: "Onboarding status fetched successfully",
} as const;
