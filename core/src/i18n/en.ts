import { ACCOUNT_FORM_MESSAGES } from "../accounts/schemas.ts";
import { DIRECTORY_MESSAGES } from "../accounts/directory.ts";
import { MESSAGES as ACCOUNT_MESSAGES } from "../accounts/messages.ts";
import { PROOF_MESSAGES } from "../accounts/recent-proof.ts";
import { SECOND_FACTOR_MESSAGES } from "../accounts/second-factor-messages.ts";
import { REMOVAL_MESSAGES } from "../accounts/removal-schemas.ts";
import { DEVICE_MESSAGES } from "../accounts/devices-schemas.ts";
import { FAMILY_DATA_MESSAGES } from "../family-data/requests.ts";
import { AUDIT_VIEW_MESSAGES } from "../audit/view.ts";
import { CHAT_MESSAGES } from "../chat/requests.ts";
import { BABY_CODE_MESSAGES } from "../kiosk/baby-code.ts";
import { KIOSK_MESSAGES } from "../kiosk/requests.ts";
import { LEARNING_MESSAGES } from "../learning/requests.ts";
import { BAND_LABELS } from "../measurement/bands.ts";
import { FRAME_MESSAGES, QUALITY_REASON_MESSAGES } from "../measurement/verdict.ts";
import { NOTIFICATION_MESSAGES } from "../notifications/service.ts";
import { MESSAGES as ONBOARDING_MESSAGES } from "../onboarding/messages.ts";
import { QUIZ_MESSAGES } from "../onboarding/quiz.ts";
import { QUIZ_FEEDBACK_TEXT, QUIZ_GOOD_IMAGE_TEXT } from "../onboarding/quiz-texts.ts";
import { FORM_MESSAGES } from "../onboarding/schemas.ts";
import { ACCESS_MESSAGES } from "../accounts/access.ts";
import { NPI_MESSAGES } from "../accounts/npi.ts";
import { MESSAGES as PRACTICE_MESSAGES } from "../practice/service.ts";
import { PRACTICE_MESSAGES as VERIFICATION_MESSAGES } from "../accounts/practice-verification.ts";
import { REPORT_STATUS_WORDS, RESULT_MESSAGES, REVIEW_MESSAGES, UPLOAD_MESSAGES } from "../report/requests.ts";
import { ERROR_MESSAGES } from "../shared/errors.ts";
import { INPUT_MESSAGES } from "../shared/input.ts";
import { PAGE_MESSAGE, PER_PAGE_MESSAGE, SESSION_ENDED, STATUS_MESSAGES, TOO_MANY_ATTEMPTS } from "../shared/messages.ts";
import { FIELD_MESSAGES } from "../shared/validation.ts";

/**
 * The field labels a template names (`{label} is required`): the words the schemas pass to `Required`,
 * `NewPassword` and `OneOf`. Other languages translate them before filling the template in.
 */
export const FIELD_LABELS = {
  firstName: "First name",
  lastName: "Last name",
  fullName: "Full name",
  providerName: "Provider name",
  name: "Name",
  identifier: "Identifier",
  password: "Password",
  confirmPassword: "Confirm Password",
  oldPassword: "Old password",
  newPassword: "New password",
  baby: "Baby",
  attachment: "Attachment",
  token: "Token",
  signature: "Signature",
  reportIdentifier: "Report identifier",
  qrCode: "QR code",
  practiceName: "Practice name",
  physician: "Physician",
  pairingCode: "Pairing code",
  pin: "PIN",
  image: "Image",
  device: "Device",
  type: "Type",
  relationship: "Relationship",
  mode: "Mode",
  gender: "Gender",
  analysisType: "Analysis type",
  status: "Status",
  staffType: "Staff type",
  language: "Language",
  reason: "Reason",
} as const;

/** What `NotFound.of(...)` names (`{what} not found`). */
export const THINGS = {
  user: "User",
  physician: "Physician",
  attachment: "Attachment",
  baby: "Baby",
  patient: "Patient",
  thumbnail: "Thumbnail",
  report: "Report",
  staffMember: "Staff member",
  profilePhoto: "Profile photo",
  parent: "Parent",
  nurse: "Nurse",
  device: "Device",
  conversation: "Conversation",
  session: "Session",
  removalRequest: "Removal request",
  dataExport: "Data export",
} as const;

/** Effect Schema's own words where a union member adds its default message (e.g. a nullable field's). */
export const SCHEMA_DEFAULTS = {
  expected: "Expected {expected}, actual {actual}",
} as const;

/**
 * Core's English catalogue: the message constants themselves, by feature (ADR 76). Nothing is
 * written twice: a new message added to one of these constants is in the catalogue, and the
 * parity test then asks for its Spanish.
 */
export const EN = {
  fields: FIELD_MESSAGES,
  labels: FIELD_LABELS,
  things: THINGS,
  reportStatuses: REPORT_STATUS_WORDS,
  errors: ERROR_MESSAGES,
  schema: SCHEMA_DEFAULTS,
  input: INPUT_MESSAGES,
  common: { tooManyAttempts: TOO_MANY_ATTEMPTS, perPage: PER_PAGE_MESSAGE, page: PAGE_MESSAGE, sessionEnded: SESSION_ENDED },
  status: STATUS_MESSAGES,
  accounts: ACCOUNT_MESSAGES,
  accountForms: ACCOUNT_FORM_MESSAGES,
  removal: REMOVAL_MESSAGES,
  proof: PROOF_MESSAGES,
  devices: DEVICE_MESSAGES,
  familyData: FAMILY_DATA_MESSAGES,
  secondFactor: SECOND_FACTOR_MESSAGES,
  directory: DIRECTORY_MESSAGES,
  onboarding: ONBOARDING_MESSAGES,
  forms: FORM_MESSAGES,
  quiz: QUIZ_MESSAGES,
  practice: PRACTICE_MESSAGES,
  access: ACCESS_MESSAGES,
  verification: VERIFICATION_MESSAGES,
  npi: NPI_MESSAGES,
  kiosk: KIOSK_MESSAGES,
  babyCode: BABY_CODE_MESSAGES,
  upload: UPLOAD_MESSAGES,
  review: REVIEW_MESSAGES,
  results: RESULT_MESSAGES,
  chat: CHAT_MESSAGES,
  notifications: NOTIFICATION_MESSAGES,
  audit: AUDIT_VIEW_MESSAGES,
  frames: FRAME_MESSAGES,
  qualityReasons: QUALITY_REASON_MESSAGES,
  quizTexts: { ...QUIZ_FEEDBACK_TEXT, ...QUIZ_GOOD_IMAGE_TEXT },
  bands: BAND_LABELS,
  learning: LEARNING_MESSAGES,
} as const;

/** A catalogue in another language: the same groups and keys, each a string (ICU message syntax). */
export type Catalogue = { readonly [G in keyof typeof EN]: { readonly [K in keyof (typeof EN)[G]]: string } };
