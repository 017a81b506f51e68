import { Required } from "@crown/core";
import { Schema } from "effect";

/**
 * Baby, child-details and BAA forms. Built from core's field blocks (`Required`) so the
 * "<Label> is required" messages are core's; the date and provider messages are the spec's
 * (section 5), kept here until core grows onboarding schemas.
 */

export const RELATIONS = ["mother", "father", "other"] as const;
export const GENDERS = ["male", "female", "other"] as const;
export const RACES = [
  "American Indian or Alaska Native",
  "Asian",
  "Black or African American",
  "Native Hawaiian or other Pacific Islander",
  "White",
] as const;
export const PRETERM_WEEKS_MAX = 16;

export const DATE_MESSAGE = "Please enter proper date in format (MM/DD/YYYY)";
export const PROVIDER_MESSAGE =
  "Seems your provider is not registered. Ask them to sign up first, or you select/type 'No Physician' (without quotation marks)";

const msg = (text: string) => ({ message: () => ({ message: text, override: true }) });

/** A real YYYY-MM-DD calendar date that is not in the future. */
export const isPastOrTodayDate = (s: string): boolean => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return false;
  const now = new Date();
  return date.getTime() <= Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()) && y >= 1900;
};

const DateOfBirth = Schema.propertySignature(Schema.String.pipe(Schema.filter(isPastOrTodayDate)).annotations(msg(DATE_MESSAGE))).annotations({
  missingMessage: () => DATE_MESSAGE,
});

const Relation = Schema.propertySignature(Schema.Literal(...RELATIONS).annotations(msg("Relationship is required"))).annotations({
  missingMessage: () => "Relationship is required",
});

const Provider = Schema.propertySignature(Schema.String.pipe(Schema.minLength(1)).annotations(msg(PROVIDER_MESSAGE))).annotations({
  missingMessage: () => PROVIDER_MESSAGE,
});

const OptionalString = Schema.optional(Schema.String);

export const BabyDetailsForm = Schema.Struct({
  relation: Relation,
  physician_identifier: Provider,
  first_name: Required("First name"),
  middle_name: OptionalString,
  last_name: Required("Last name"),
  date_of_birth: DateOfBirth,
  referral_code: OptionalString,
});
export type BabyDetailsForm = typeof BabyDetailsForm.Type;

export const BaaForm = Schema.Struct({
  covered_entity: Required("Practice name"),
  name: Required("Full name"),
});
