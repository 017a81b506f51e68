import { Effect, Either, ParseResult, Schema } from "effect";
import { ValidationFailed } from "./errors.ts";
import { fill } from "./i18n.ts";
import { inputProblem, MAX_INPUT_DEPTH } from "./input.ts";
import { PHONE_PATTERN } from "./phone.ts";

/**
 * Validation shared by server and browser: schemas carry the spec's exact messages, and
 * `validate` turns a parse failure into per-field messages ({ field: [message, ...] }).
 */

/** Every string field is trimmed before validation (api-contract.md); nothing below the depth any input may have is visited. */
export const trimStrings = (input: unknown, depth = 0): unknown => {
  if (typeof input === "string") return input.trim();
  if (depth >= MAX_INPUT_DEPTH) return input;
  if (Array.isArray(input)) return input.map((v) => trimStrings(v, depth + 1));
  // A query's parameters come as an object without a prototype: trimmed like a JSON body's fields.
  if (input !== null && typeof input === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(input))) {
    return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, trimStrings(v, depth + 1)]));
  }
  return input;
};

export const fieldErrors = (error: ParseResult.ParseError): Record<string, string[]> => {
  const errors: Record<string, string[]> = {};
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "_";
    const list = (errors[field] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return errors;
};

const toValidationFailed = (error: ParseResult.ParseError): ValidationFailed => {
  const errors = fieldErrors(error);
  const first = Object.values(errors)[0]?.[0] ?? FIELD_MESSAGES.invalid;
  return new ValidationFailed({ message: first, errors });
};

/** Decodes `input` (trimmed) with every error collected, as an Either: usable in the browser without a runtime. */
export const check = <A, I>(schema: Schema.Schema<A, I, never>, input: unknown): Either.Either<A, ValidationFailed> => {
  // Too deep or unstorable text: a field error before any schema (or the database) sees it.
  const problem = inputProblem(input);
  if (problem) return Either.left(ValidationFailed.field(problem.field, problem.message));
  return Either.mapLeft(Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" })(trimStrings(input)), toValidationFailed);
};

export const validate = <A, I>(schema: Schema.Schema<A, I, never>, input: unknown): Effect.Effect<A, ValidationFailed> =>
  Either.match(check(schema, input), { onLeft: Effect.fail, onRight: Effect.succeed });

// ---- Field building blocks with the spec's messages -------------------------------------------

export const PASSWORD_RULE_MESSAGE =
  "Password must contain minimum 8 characters with atleast one upper case, one lowercase, one number and one special characters (!@#$%^&*-_)";

/** The field rules' messages: the English source of the `fields` catalogue (`{name}` is filled in, ADR 76). */
export const FIELD_MESSAGES = {
  invalid: "The given data was invalid.",
  required: "{label} is required",
  atMost: "Must be at most {max} characters",
  emailRequired: "Email is required",
  emailInvalid: "Email is invalid",
  passwordRule: PASSWORD_RULE_MESSAGE,
  passwordTooLong: "Password must be at most 128 characters",
  phoneRequired: "Mobile number is required",
  phoneInvalid: "Mobile number is invalid",
  oneOf: "{label} must be one of {values}",
} as const;

const required = (label: string) => fill(FIELD_MESSAGES.required, { label });

const msg = (text: string) => ({ message: () => ({ message: text, override: true }) });

/** A required text field: missing, not a string or empty all answer "<Label> is required". */
export const Required = (label: string) =>
  Schema.propertySignature(Schema.String.pipe(Schema.minLength(1)).annotations(msg(required(label)))).annotations({
    missingMessage: () => required(label),
  });

export const Optional = <A, I>(schema: Schema.Schema<A, I, never>) => Schema.optionalWith(schema, { nullable: true });

/** Optional free text: absent, null and "" all mean "not given". */
export const OptionalText = (max = 255) =>
  Schema.optionalWith(Schema.String.pipe(Schema.maxLength(max)).annotations(msg(fill(FIELD_MESSAGES.atMost, { max }))), {
    nullable: true,
  });

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
export const Email = Schema.propertySignature(
  Schema.String.annotations(msg(FIELD_MESSAGES.emailRequired)).pipe(
    Schema.minLength(1, { message: () => FIELD_MESSAGES.emailRequired }),
    Schema.filter((s) => s.length === 0 || (EMAIL_PATTERN.test(s) && s.length <= 254), { message: () => FIELD_MESSAGES.emailInvalid }),
  ),
).annotations({ missingMessage: () => FIELD_MESSAGES.emailRequired });

export const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[!@#$%^&*\-_]).{8,}$/;

/** A new password: required, then the spec's strength rule. */
export const NewPassword = (label = "Password") =>
  Schema.propertySignature(
    Schema.String.annotations(msg(required(label))).pipe(
      Schema.minLength(1, { message: () => required(label) }),
      Schema.filter((s) => s.length === 0 || PASSWORD_PATTERN.test(s), { message: () => PASSWORD_RULE_MESSAGE }),
      Schema.maxLength(128, { message: () => FIELD_MESSAGES.passwordTooLong }),
    ),
  ).annotations({ missingMessage: () => required(label) });

export const Phone = Schema.propertySignature(
  Schema.String.annotations(msg(FIELD_MESSAGES.phoneRequired)).pipe(
    Schema.minLength(1, { message: () => FIELD_MESSAGES.phoneRequired }),
    Schema.filter((s) => s.length === 0 || PHONE_PATTERN.test(s), { message: () => FIELD_MESSAGES.phoneInvalid }),
  ),
).annotations({ missingMessage: () => FIELD_MESSAGES.phoneRequired });

export const OneOf = <const L extends readonly [string, ...string[]]>(values: L, label: string, requiredMessage?: string) =>
  Schema.propertySignature(
    Schema.Literal(...values).annotations(
      msg(fill(FIELD_MESSAGES.oneOf, { label, values: `${values.slice(0, -1).join(", ")}${values.length > 1 ? " or " : ""}${values.at(-1)}` })),
    ),
  ).annotations({ missingMessage: () => requiredMessage ?? required(label) });
