import { Schema } from "effect";
import { Email, NewPassword, OneOf, Phone, Required } from "../shared/validation.ts";
import { OptionalNpi } from "./npi.ts";
import { SIGN_UP_TYPES } from "./lifecycle.ts";
import { LANGUAGES } from "../shared/i18n.ts";

/** Request bodies of the accounts calls, with the spec's messages. Shared by server, web and kiosk. */

/** The forms' own messages (the others are the field blocks' in shared/validation.ts). */
export const ACCOUNT_FORM_MESSAGES = {
  passwordsDiffer: "Passwords do not match",
  acceptTerms: "Please accept the terms, conditions and privacy policy",
  faxInvalid: "Fax number is invalid",
} as const;

export const SignUpRequest = Schema.Struct({
  first_name: Required("First name"),
  last_name: Required("Last name"),
  email: Email,
  password: NewPassword(),
  phone: Phone,
  type: OneOf(SIGN_UP_TYPES, "Type"),
  register_type: Schema.optional(Schema.String),
  /** A physician's NPI number (required for physicians, checked by the use case). */
  npi: OptionalNpi,
});
export type SignUpRequest = typeof SignUpRequest.Type;

const passwordsMatch = <T extends { password: string; confirm_password: string }>(v: T) =>
  v.password === v.confirm_password || { path: ["confirm_password"], message: ACCOUNT_FORM_MESSAGES.passwordsDiffer };

/** The sign-up form as the user fills it: adds confirmation and the terms checkbox. */
export const SignUpForm = Schema.Struct({
  ...SignUpRequest.fields,
  confirm_password: Required("Confirm Password"),
  terms: Schema.propertySignature(
    Schema.Literal(true).annotations({ message: () => ({ message: ACCOUNT_FORM_MESSAGES.acceptTerms, override: true }) }),
  ).annotations({ missingMessage: () => ACCOUNT_FORM_MESSAGES.acceptTerms }),
}).pipe(Schema.filter(passwordsMatch));

export const SignInRequest = Schema.Struct({
  email: Email,
  // On login only the required check applies (the spec).
  password: Required("Password"),
  device_type: Schema.optional(Schema.String),
  remember_me: Schema.optional(Schema.Boolean),
  /** The second step (issue 44): an authenticator app's code or a recovery code, given with the password. */
  code: Schema.optional(Schema.String.pipe(Schema.maxLength(64))),
});
export type SignInRequest = typeof SignInRequest.Type;

export const EmailRequest = Schema.Struct({ email: Email });

export const ResetPasswordRequest = Schema.Struct({
  token: Required("Token"),
  password: NewPassword(),
  email: Schema.optional(Schema.String),
  // An invitation's page also asks the invitee's name (checked with InvitationNames).
  first_name: Schema.optional(Schema.String),
  last_name: Schema.optional(Schema.String),
});

/** The name an invitee gives when accepting an invitation: the sign-up form's name rules. */
export const InvitationNames = Schema.Struct({ first_name: SignUpRequest.fields.first_name, last_name: SignUpRequest.fields.last_name });

export const ResetPasswordForm = Schema.Struct({
  password: NewPassword(),
  confirm_password: Required("Confirm Password"),
}).pipe(Schema.filter(passwordsMatch));

/** The invitation's set-password page: the invitee's name, then the password twice. */
export const AcceptInvitationForm = Schema.Struct({
  ...InvitationNames.fields,
  password: NewPassword(),
  confirm_password: Required("Confirm Password"),
}).pipe(Schema.filter(passwordsMatch));

export const ChangePasswordRequest = Schema.Struct({
  old_password: Required("Old password"),
  new_password: NewPassword("New password"),
});

export const ChangePasswordForm = Schema.Struct({
  old_password: Required("Old password"),
  password: NewPassword("New password"),
  confirm_password: Required("Confirm Password"),
}).pipe(Schema.filter(passwordsMatch));

export const FAX_PATTERN = /^\+?[0-9()\-\s]{7,20}$/;
export const ProfileUpdateRequest = Schema.Struct({
  first_name: Required("First name"),
  last_name: Required("Last name"),
  phone: Phone,
  // One filter over the nullish union (not a nullable wrapper around a filtered string), so an invalid
  // fax answers only "Fax number is invalid", not also Effect's "Expected null/undefined" union members.
  fax_number: Schema.optionalWith(
    Schema.NullishOr(Schema.String).pipe(
      Schema.filter((s) => s == null || s === "" || FAX_PATTERN.test(s), { message: () => ACCOUNT_FORM_MESSAGES.faxInvalid }),
    ),
    { exact: true },
  ),
});
export type ProfileUpdateRequest = typeof ProfileUpdateRequest.Type;

/** The account's language (e-mails, reports, the portal once signed in). */
export const LanguageRequest = Schema.Struct({ language: OneOf(LANGUAGES, "Language") });
export type LanguageRequest = typeof LanguageRequest.Type;

export const VerifyEmailQuery = Schema.Struct({
  expires: Schema.NumberFromString.annotations({ message: () => ({ message: "This verification link is invalid or has expired.", override: true }) }),
  signature: Required("Signature"),
});
