import { Effect, Either, ParseResult, Schema } from "effect";
import { STAFF_TYPES } from "../accounts/staff-types.ts";
import { ValidationFailed } from "../shared/errors.ts";
import { check, Email, OneOf, OptionalText, Required } from "../shared/validation.ts";
import { addMonths, type CalendarDay, compareDays, parseDay } from "../shared/days.ts";
import { GENDERS, QUIZ_MODES, RACES, RELATIONS } from "./model.ts";
import { QUIZ_ANSWERS, QUIZ_LENGTH, QUIZ_MESSAGES } from "./quiz.ts";
import { OptionalPerPage } from "../shared/page.ts";

/**
 * Request bodies of the onboarding and practice calls, with the specs' messages. Rules that
 * depend on today (no date of birth in the future, the patient form's 30-month limit) take
 * today as an argument, so the browser and the server build the same schema for the same day.
 */

const msg = (text: string) => ({ message: () => ({ message: text, override: true }) });

/** Pre-term weeks are counted against 40 weeks; the spec allows 0 to 16. */
export const PRETERM_WEEKS_MAX = 16;

export const FORM_MESSAGES = {
  dateFormat: "Please enter proper date in format (MM/DD/YYYY)",
  dateRequired: "Date of birth is required",
  dateInFuture: "Date of birth cannot be in the future",
  dateTooOld: "Date of birth cannot be older than 30 months",
  providerMissing:
    "Seems your provider is not registered. Ask them to sign up first, or you select/type 'No Physician' (without quotation marks)",
  providerRequired: "Provider is required. Choose your provider, or 'No Physician' if you do not have one.",
  nicuTime: `Pre-term weeks must be a whole number between 0 and ${PRETERM_WEEKS_MAX}`,
  race: `Race must be one of ${RACES.join(", ")}`,
  disclaimer: "Please accept the terms of Disclaimer",
  childName: "Child name is required",
  patientName: "Patient name is required",
  gender: "Gender is required",
  searchTooShort: "Please type more than 2 characters to search",
} as const;

/** The patient form's limit: a date of birth no older than 30 months before today. */
export const PATIENT_MAX_AGE_MONTHS = 30;

/** A date of birth: a real `YYYY-MM-DD` day, not after `today`, and (for patients) not before `earliest`. */
export const DateOfBirth = (today: CalendarDay, earliest?: CalendarDay) =>
  Schema.propertySignature(
    Schema.String.annotations(msg(FORM_MESSAGES.dateFormat)).pipe(
      Schema.minLength(1, { message: () => FORM_MESSAGES.dateRequired }),
      Schema.filter((s) => s.length === 0 || parseDay(s) !== null, { message: () => FORM_MESSAGES.dateFormat }),
      Schema.filter(
        (s) => {
          const day = parseDay(s);
          return day === null || compareDays(day, today) <= 0;
        },
        { message: () => FORM_MESSAGES.dateInFuture },
      ),
      Schema.filter(
        (s) => {
          const day = parseDay(s);
          return day === null || earliest === undefined || compareDays(day, earliest) >= 0;
        },
        { message: () => FORM_MESSAGES.dateTooOld },
      ),
    ),
  ).annotations({ missingMessage: () => FORM_MESSAGES.dateRequired });

const OptionalOneOf = <const L extends readonly [string, ...string[]]>(values: L, message: string) =>
  Schema.optionalWith(Schema.Literal(...values).annotations(msg(message)), { nullable: true });

const listOf = (values: ReadonlyArray<string>) => `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;

/** Pre-term weeks, 0 to 16 (measured against 40 weeks); a number or its text. */
const NicuTime = Schema.optionalWith(
  Schema.Union(Schema.Number, Schema.NumberFromString)
    .annotations(msg(FORM_MESSAGES.nicuTime))
    .pipe(Schema.filter((n) => Number.isInteger(n) && n >= 0 && n <= PRETERM_WEEKS_MAX, { message: () => FORM_MESSAGES.nicuTime })),
  { nullable: true },
);

// An empty field asks for a provider; "not registered" is for a provider named that Crown does not know (policy.ts).
const ProviderRequired = Schema.propertySignature(Schema.String.pipe(Schema.minLength(1)).annotations(msg(FORM_MESSAGES.providerRequired))).annotations({
  missingMessage: () => FORM_MESSAGES.providerRequired,
});

const hasText = (v: unknown) => typeof v === "string" && v.trim() !== "";

/**
 * The name as a whole: `name` (the joined name the clients send) or one of its parts. With no
 * name at all the form says so on `name` ("Child name is required", "Patient name is required"),
 * besides the parts' own messages. A struct filter would only run once every field is valid, so
 * the rule wraps the struct and adds its message to the fields' own.
 */
const NameRequired = <A, I>(struct: Schema.Schema<A, I, never>, message: string) =>
  Schema.declare([struct], {
    decode: (inner) => (input, options, ast) => {
      const decoded = ParseResult.decodeUnknown(inner)(input, options);
      const record = input !== null && typeof input === "object" ? (input as Record<string, unknown>) : {};
      if (hasText(record.name) || hasText(record.first_name) || hasText(record.last_name)) return decoded;
      const missing = new ParseResult.Pointer("name", input, new ParseResult.Type(ast, record.name, message));
      return Effect.matchEffect(decoded, {
        onFailure: (issue) => Effect.fail(new ParseResult.Composite(ast, input, [issue, missing])),
        onSuccess: () => Effect.fail(missing),
      });
    },
    encode: (inner) => (input, options) => ParseResult.encodeUnknown(inner)(input, options),
  });

const OptionalRelation = OptionalOneOf(RELATIONS, `Relationship must be one of ${listOf(RELATIONS)}`);
const OptionalStaffType = OptionalOneOf(STAFF_TYPES, `Staff type must be one of ${listOf(STAFF_TYPES)}`);

/** The physician a staff member acts for, by either of the clients' names for it (the practice's own calls). */
const actingFor = { physician_identifier: OptionalText(64), physician_id: OptionalText(64) };

/** What a parent tells about a baby (register-baby, add-baby). */
export const babyFields = (today: CalendarDay) => ({
  physician_identifier: ProviderRequired,
  name: OptionalText(255),
  first_name: Required("First name"),
  middle_name: OptionalText(100),
  last_name: Required("Last name"),
  date_of_birth: DateOfBirth(today),
  relation: OneOf(RELATIONS, "Relationship"),
  referral_code: OptionalText(64),
  gender: OptionalOneOf(GENDERS, `Gender must be one of ${listOf(GENDERS)}`),
  ethnicity: OptionalOneOf(RACES, FORM_MESSAGES.race),
  nicu_time: NicuTime,
  previous_condition: OptionalText(1000),
});

export const BabyRequest = (today: CalendarDay) => NameRequired(Schema.Struct(babyFields(today)), FORM_MESSAGES.childName);
export type BabyRequest = Schema.Schema.Type<ReturnType<typeof BabyRequest>>;

/** update-baby and update-child: the same fields plus the baby's identifier; relation may be omitted. */
export const BabyUpdateRequest = (today: CalendarDay) =>
  NameRequired(
    Schema.Struct({
      ...babyFields(today),
      identifier: Required("Identifier"),
      relation: OptionalRelation,
    }),
    FORM_MESSAGES.childName,
  );
export type BabyUpdateRequest = Schema.Schema.Type<ReturnType<typeof BabyUpdateRequest>>;

/**
 * The patient form of a practice: first name, last name, date of birth (at most 30 months ago) and
 * gender required (the accounts spec's "Gender is required"; the patient form is the one form where
 * gender cannot be skipped).
 */
export const patientFields = (today: CalendarDay) => ({
  name: OptionalText(255),
  first_name: Required("First name"),
  middle_name: OptionalText(100),
  last_name: Required("Last name"),
  date_of_birth: DateOfBirth(today, addMonths(today, -PATIENT_MAX_AGE_MONTHS)),
  gender: OneOf(GENDERS, "Gender", FORM_MESSAGES.gender),
  relation: OptionalRelation,
  email: Schema.optionalWith(
    Schema.String.pipe(Schema.filter((s) => s === "" || (/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(s) && s.length <= 254), { message: () => "Email is invalid" })),
    { nullable: true },
  ),
  phone: Schema.optionalWith(
    Schema.String.pipe(Schema.filter((s) => s === "" || /^\d{10}$/.test(s), { message: () => "Mobile number is invalid" })),
    { nullable: true },
  ),
  previous_condition: OptionalText(1000),
  referral_code: OptionalText(64),
  ethnicity: OptionalOneOf(RACES, FORM_MESSAGES.race),
  nicu_time: NicuTime,
  ...actingFor,
});
export const PatientRequest = (today: CalendarDay) => NameRequired(Schema.Struct(patientFields(today)), FORM_MESSAGES.patientName);
export type PatientRequest = Schema.Schema.Type<ReturnType<typeof PatientRequest>>;
export const PatientUpdateRequest = (today: CalendarDay) =>
  NameRequired(Schema.Struct({ ...patientFields(today), identifier: Required("Identifier") }), FORM_MESSAGES.patientName);
export type PatientUpdateRequest = Schema.Schema.Type<ReturnType<typeof PatientUpdateRequest>>;

/** Pages of a list: `per_page` (default 10, at most 100), an optional search, and the physician a staff member acts for. */
export const ListRequest = Schema.Struct({
  per_page: OptionalPerPage,
  search: OptionalText(100),
  ...actingFor,
});
export type ListRequest = typeof ListRequest.Type;

export const AddStaffRequest = Schema.Struct({
  email: Email,
  type: OptionalStaffType,
  staff_type: OptionalStaffType,
  first_name: OptionalText(100),
  last_name: OptionalText(100),
  ...actingFor,
});
export type AddStaffRequest = typeof AddStaffRequest.Type;

export const RemoveStaffRequest = Schema.Struct({
  staff_identifier: OptionalText(64),
  nurse_identifier: OptionalText(64),
  ...actingFor,
});
export type RemoveStaffRequest = typeof RemoveStaffRequest.Type;

export const PhysicianSearchQuery = Schema.Struct({
  name: Schema.propertySignature(
    Schema.String.pipe(Schema.minLength(3, { message: () => FORM_MESSAGES.searchTooShort }), Schema.maxLength(100, { message: () => "Please type at most 100 characters" })),
  ).annotations({ missingMessage: () => FORM_MESSAGES.searchTooShort }),
});

export const SignBaaRequest = Schema.Struct({
  identifier: OptionalText(64),
  email: OptionalText(254),
  // The agreement's field is "Provider Name" (spec): its message names it.
  name: Required("Provider name"),
  covered_entity: Required("Practice name"),
});
export type SignBaaRequest = typeof SignBaaRequest.Type;

const AcceptedTrue = Schema.Union(Schema.Literal(true), Schema.Literal("true"), Schema.Literal(1), Schema.Literal("1")).annotations(msg(FORM_MESSAGES.disclaimer));
export const AcceptDisclaimerRequest = Schema.Struct({
  accepted: Schema.propertySignature(AcceptedTrue).annotations({ missingMessage: () => FORM_MESSAGES.disclaimer }),
});

/**
 * A quiz as the client took it: the mode and, for each photo it was shown, GOOD or BAD. The
 * server grades it against the pool (quiz.ts); `identifier` (the spec's payload) names the caller.
 */
export const QuizAnswer = Schema.Struct({
  image: Required("Image"),
  answer: Schema.propertySignature(Schema.Literal(...QUIZ_ANSWERS).annotations(msg(QUIZ_MESSAGES.answerValue))).annotations({
    missingMessage: () => QUIZ_MESSAGES.answerValue,
  }),
});
export const UpdateQuizRequest = Schema.Struct({
  identifier: OptionalText(64),
  mode: OneOf(QUIZ_MODES, "Mode"),
  answers: Schema.propertySignature(
    Schema.Array(QuizAnswer)
      .annotations({ message: () => QUIZ_MESSAGES.answersRequired })
      .pipe(Schema.filter((a) => a.length === QUIZ_LENGTH, { message: () => QUIZ_MESSAGES.answerCount })),
  ).annotations({ missingMessage: () => QUIZ_MESSAGES.answersRequired }),
});
export type UpdateQuizRequest = typeof UpdateQuizRequest.Type;

export const MarketingRequest = Schema.Struct({
  parent_identifier: OptionalText(64),
  physician_name: OptionalText(255),
  baby_name: OptionalText(255),
});

export const IdentifierRequest = Schema.Struct({ identifier: Required("Identifier"), reason: OptionalText(1000) });


const NULLABLE_NOISE = /^Expected (null|undefined), actual /;

/**
 * A present but wrong optional value fails its own rule and also the "null" and "undefined"
 * members of its union; only the rule is kept.
 */
const withoutNullableNoise = (error: ValidationFailed): ValidationFailed => {
  const errors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(error.errors)) {
    const kept = messages.filter((m) => !NULLABLE_NOISE.test(m));
    errors[field] = kept.length > 0 ? kept : [...messages];
  }
  return new ValidationFailed({ message: Object.values(errors)[0]?.[0] ?? error.message, errors });
};

/** `check` for the forms of this file: usable in the browser, with the same messages as the server. */
export const checkForm = <A, I>(schema: Schema.Schema<A, I, never>, input: unknown): Either.Either<A, ValidationFailed> =>
  Either.mapLeft(check(schema, input), withoutNullableNoise);

/** `validate` for the forms of this file (the server side of `checkForm`). */
export const validateForm = <A, I>(schema: Schema.Schema<A, I, never>, input: unknown): Effect.Effect<A, ValidationFailed> =>
  Either.match(checkForm(schema, input), { onLeft: Effect.fail, onRight: Effect.succeed });
