/**
 * The accounts feature's use cases, one per file, under the one name the adapters call
 * (`Accounts.signIn`, ...). Rules live in lifecycle.ts (status), policy.ts, schemas.ts (requests
 * and messages) and model.ts (entities, ports, settings).
 */
export { LIMITS } from "./model.ts";
export { MESSAGES } from "./messages.ts";
export { newUser } from "./model.ts";
export { PROFILE_PHOTO_MAX_BYTES, sessionLifetime } from "./policy.ts";
export { profileOf } from "./present.ts";
export { signUp } from "./sign-up.ts";
export { issueVerificationLink, resendVerification, verifyEmail } from "./verify-email.ts";
export { openSession, signIn, signInWithPasskey } from "./sign-in.ts";
export { admitCaller, authenticate } from "./authenticate.ts";
export { signOut } from "./sign-out.ts";
export { recoverPassword } from "./recover-password.ts";
export { resetPassword } from "./reset-password.ts";
export { changePassword } from "./change-password.ts";
export { readProfile, updateProfile } from "./profile.ts";
export { changeLanguage } from "./change-language.ts";
export { readProfilePhoto, removeProfilePhoto, updateProfilePhoto } from "./profile-photo.ts";
export { createVerifiedUser, findUserByEmail } from "./create-verified-user.ts";
export { changeStatus } from "./change-status.ts";
export { setPasswordByOperator } from "./operator.ts";
export { PROOF_FRESH_SECONDS, PROOF_MESSAGES, PROOF_REQUIRED_STATUS, ProofRequest, proofIsFresh, proveWithPassword, requireRecentProof } from "./recent-proof.ts";
export { SECOND_FACTOR_MESSAGES } from "./second-factor-messages.ts";
export { awaitsSecondFactorSetup, SECOND_FACTOR_SETUP_STATUS, SECOND_FACTOR_STEP_STATUS, secondFactorRequired } from "./second-factor-model.ts";
export {
  CodeRequest,
  confirmAuthenticatorApp,
  regenerateRecoveryCodes,
  removeAuthenticatorApp,
  secondFactorStatus,
  startAuthenticatorApp,
  turnOffSecondFactor,
} from "./second-factor.ts";
export {
  AddPasskeyRequest,
  addPasskey,
  PasskeyOptionsRequest,
  PasskeyResponseRequest,
  passkeyProofOptions,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  proveWithPasskey,
  removePasskey,
} from "./passkeys.ts";
export { resetSecondFactor, ResetSecondFactorRequest } from "./reset-second-factor.ts";
export { CommonPasswords, isCommonPassword, refuseCommonPassword } from "./common-passwords.ts";
