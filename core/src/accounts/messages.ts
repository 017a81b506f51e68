import { TOO_MANY_ATTEMPTS } from "../shared/messages.ts";

/** The accounts calls' answers and refusals, in the spec's words (apart from schemas.ts, which the sign-in page loads). */
export const MESSAGES = {
  signedUp: "Thanks for signing up. Please check your email inbox and verify your email",
  emailTaken: "The email has already been taken.",
  badCredentials: "These credentials do not match our records.",
  emailNotVerified: "Please verify your email address before signing in.",
  blocked: "Your account has been blocked. Please contact support.",
  passwordExpired: "Your password has expired. Please reset your password.",
  signedIn: "Signed in successfully",
  signedOut: "Signed out successfully",
  signedOutWaitingApproval:
    "Your request has been received. You will be contacted after an administrator reviews your child's information.",
  verified: "Your email has been verified successfully. Please sign in.",
  alreadyVerified: "Your email is already verified. Please sign in.",
  badVerificationLink: "This verification link is invalid or has expired.",
  verificationSent: "Verification link sent successfully. Please check your email inbox",
  resetSent: "Reset password link successfully sent to your email address",
  badResetLink: "This password reset link is invalid or has expired.",
  passwordChanged: "Password changed successfully",
  wrongOldPassword: "The old password is incorrect.",
  samePassword: "The new password must be different from the old password.",
  profile: "Profile fetched successfully",
  profileUpdated: "Profile updated successfully",
  languageChanged: "Language changed successfully",
  photoRemoved: "Profile photo removed successfully",
  photoType: "The profile photo must be a PNG or JPEG image.",
  photoMissing: "Please choose a profile photo to upload.",
  photoTooLarge: "The profile photo must be at most 5 MB.",
  tooManyAttempts: TOO_MANY_ATTEMPTS,
  commonPassword: "This password is one attackers try first: it is, or is built on, a commonly used password. Please choose another.",
} as const;
