import fc from "fast-check";
import type { SignUpRequest } from "../accounts/schemas.ts";
import { SIGN_UP_TYPES, type SignUpType } from "../accounts/lifecycle.ts";

/**
 * Object mothers and fast-check arbitraries for accounts payloads. Mothers give one valid,
 * readable payload with a fresh e-mail address on every call; arbitraries give many.
 */

export type SignUpPayload = {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  phone: string;
  type: SignUpType;
  register_type?: string;
} & Partial<Record<string, unknown>>;

/** An NPI number with a valid check digit (CMS's example); physicians sign up with one. */
export const VALID_NPI = "1234567893";
const withNpi = (p: SignUpPayload): SignUpPayload => (p.type === "physician" && p.npi === undefined ? { ...p, npi: VALID_NPI } : p);

/** A password that satisfies the spec's rule. */
export const VALID_PASSWORD = "Vq8#Rimble-42";
export const OTHER_VALID_PASSWORD = "Zp4$Quillon-7";

let sequence = 0;
/** A fresh, unique e-mail address (unique within the process). */
export const uniqueEmail = (prefix = "user") => `${prefix}.${++sequence}@example.com`;

const aSignUp = (type: SignUpType, firstName: string, lastName: string, overrides: Partial<SignUpPayload>): SignUpPayload =>
  withNpi({
    first_name: firstName,
    last_name: lastName,
    email: uniqueEmail(type),
    password: VALID_PASSWORD,
    phone: "5551234567",
    type,
    register_type: "normal",
    ...overrides,
  });

export const aParent = (overrides: Partial<SignUpPayload> = {}) => aSignUp("parent", "Paula", "Parent", overrides);
export const aPhysician = (overrides: Partial<SignUpPayload> = {}) => aSignUp("physician", "Philip", "Physician", overrides);
export const anOther = (overrides: Partial<SignUpPayload> = {}) => aSignUp("other", "Olga", "Other", overrides);
export const aSignUpOf = (type: SignUpType, overrides: Partial<SignUpPayload> = {}) =>
  type === "parent" ? aParent(overrides) : type === "physician" ? aPhysician(overrides) : anOther(overrides);

// ---- Arbitraries ----------------------------------------------------------------------------------

const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
export const PASSWORD_SPECIALS = "!@#$%^&*-_";
const chars = (s: string) => fc.constantFrom(...s.split(""));

/** Passwords that satisfy the rule: one of each class, 8 to 40 characters, no surrounding spaces. */
export const arbPassword: fc.Arbitrary<string> = fc
  .tuple(
    chars(LOWER),
    chars(UPPER),
    chars(DIGITS),
    chars(PASSWORD_SPECIALS),
    fc.array(chars(LOWER + UPPER + DIGITS + PASSWORD_SPECIALS + "~+=.?"), { minLength: 4, maxLength: 36 }),
  )
  .chain(([l, u, d, s, rest]) => {
    const all = [l, u, d, s, ...rest];
    return fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }).map((xs) => xs.join(""));
  });

/** Non-empty strings that break the rule (too short, or missing a class). */
export const arbWeakPassword: fc.Arbitrary<string> = fc.oneof(
  // Too short (but every class present is irrelevant: length decides).
  fc.string({ unit: chars(LOWER + UPPER + DIGITS + PASSWORD_SPECIALS), minLength: 1, maxLength: 7 }),
  // Long enough but one class missing.
  fc.string({ unit: chars(UPPER + DIGITS + PASSWORD_SPECIALS), minLength: 8, maxLength: 20 }),
  fc.string({ unit: chars(LOWER + DIGITS + PASSWORD_SPECIALS), minLength: 8, maxLength: 20 }),
  fc.string({ unit: chars(LOWER + UPPER + PASSWORD_SPECIALS), minLength: 8, maxLength: 20 }),
  fc.string({ unit: chars(LOWER + UPPER + DIGITS), minLength: 8, maxLength: 20 }),
);

const NAME_CHARS = LOWER + UPPER + "éëöüñ'-";
export const arbName: fc.Arbitrary<string> = fc
  .tuple(chars(LOWER + UPPER), fc.string({ unit: chars(NAME_CHARS), maxLength: 20 }))
  .map(([first, rest]) => first + rest);

/** Addresses that the sign-up rule accepts, already in lower case. */
export const arbEmail: fc.Arbitrary<string> = fc
  .tuple(
    fc.string({ unit: chars(LOWER + DIGITS), minLength: 1, maxLength: 12 }),
    fc.option(fc.string({ unit: chars(LOWER + DIGITS + "._+-"), minLength: 1, maxLength: 8 }), { nil: undefined }),
    fc.string({ unit: chars(LOWER + DIGITS), minLength: 1, maxLength: 12 }),
    fc.string({ unit: chars(LOWER), minLength: 2, maxLength: 6 }),
  )
  .map(([a, b, domain, tld]) => `${a}${b ?? ""}@${domain}.${tld}`);

export const arbPhone: fc.Arbitrary<string> = fc.string({ unit: chars(DIGITS), minLength: 10, maxLength: 10 });

/** Phones that break the 10-digit rule (non-empty). */
export const arbBadPhone: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: chars(DIGITS), minLength: 1, maxLength: 9 }),
  fc.string({ unit: chars(DIGITS), minLength: 11, maxLength: 15 }),
  fc.tuple(fc.string({ unit: chars(DIGITS), minLength: 9, maxLength: 9 }), chars("abc()-+x/")).map(([d, c]) => d + c),
);

export const arbSignUpType: fc.Arbitrary<SignUpType> = fc.constantFrom(...SIGN_UP_TYPES);

/** Valid sign-up payloads of any type. */
export const arbSignUp: fc.Arbitrary<SignUpPayload> = fc.record({
  first_name: arbName,
  last_name: arbName,
  email: arbEmail,
  password: arbPassword,
  phone: arbPhone,
  type: arbSignUpType,
  register_type: fc.constant("normal"),
}).map(withNpi);

/** Valid sign-up payloads of one type. */
export const arbSignUpOf = (type: SignUpType): fc.Arbitrary<SignUpPayload> => arbSignUp.map((p) => withNpi({ ...p, type, npi: undefined }));

/** Checks at compile time that a mother's payload is a valid SignUpRequest shape. */
export const asSignUpRequest = (p: SignUpPayload): SignUpRequest => p;
