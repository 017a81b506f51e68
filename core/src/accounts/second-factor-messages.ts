import { TOO_MANY_ATTEMPTS } from "../shared/messages.ts";

/** Two-step sign-in's answers and refusals (issue 44); plain, so the portal may import it. */
export const SECOND_FACTOR_MESSAGES = {
  stepRequired: "Enter the 6-digit code from your authenticator app, use a recovery code, or use a passkey.",
  // One answer whether the password or the code was wrong: the second step never tells which.
  badSecondStep: "The email, password or code do not match our records.",
  setupRequired: "Set up two-step sign-in to continue.",
  status: "Two-step sign-in fetched successfully",
  appStarted: "Scan the QR code with your authenticator app, then enter the code it shows.",
  appEnabled: "Two-step sign-in is on. Keep your recovery codes somewhere safe: each works once.",
  wrongCode: "The code is incorrect or has expired. Enter the code your authenticator app shows now.",
  codeRequired: "Code is required",
  noAppPending: "Start setting up the authenticator app again.",
  recoveryCodesMade: "New recovery codes were made. The old ones no longer work.",
  noFactor: "Set up two-step sign-in first.",
  passkeyOptions: "Passkey request ready",
  passkeyAdded: "Passkey added",
  passkeyRefused: "The passkey could not be verified. Please try again.",
  passkeyRemoved: "Passkey removed",
  passkeyMissing: "Passkey not found",
  passkeyNameTooLong: "The passkey's name must be at most 60 characters",
  turnedOff: "Two-step sign-in is off.",
  stillRequired: "Your account needs two-step sign-in: it cannot be turned off, and its last method cannot be removed.",
  reset: "Two-step sign-in was reset. The user will set it up again at the next sign-in, and has been told by e-mail.",
  resetNothing: "This user has no two-step sign-in to reset.",
  tooManyAttempts: TOO_MANY_ATTEMPTS,
} as const;
