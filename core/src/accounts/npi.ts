import { Schema } from "effect";

/**
 * The NPI number (National Provider Identifier): 10 digits, the last a Luhn check digit computed
 * over the first nine with the card-issuer prefix 80840 in front, as the NPI standard defines.
 * One rule for the server and the portal's sign-up form.
 */

export const NPI_MESSAGES = {
  required: "NPI number is required",
  invalid: "NPI number must be 10 digits with a valid check digit",
} as const;

/** The Luhn check digit of `digits` (the digit to append). */
const luhnCheckDigit = (digits: string) => {
  let sum = 0;
  // From the right, every other digit (starting with the rightmost) is doubled.
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
};

export const isValidNpi = (text: string) => /^\d{10}$/.test(text) && luhnCheckDigit(`80840${text.slice(0, 9)}`) === Number(text[9]);

/** An NPI number as typed: spaces and dashes are ignored. */
export const normaliseNpi = (text: string) => text.replace(/[\s-]/g, "");

/** An optional NPI field: one filter over the nullish union, so a wrong number answers only the NPI message. */
export const OptionalNpi = Schema.optionalWith(
  Schema.NullishOr(Schema.String).pipe(Schema.filter((s) => s == null || s.trim() === "" || isValidNpi(normaliseNpi(s)), { message: () => NPI_MESSAGES.invalid })),
  { exact: true },
);
