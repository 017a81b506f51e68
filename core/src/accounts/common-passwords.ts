import { Context, Effect } from "effect";
import { ValidationFailed } from "../shared/errors.ts";
import { MESSAGES } from "./messages.ts";

/**
 * Passwords attackers try first (issue 44, ADR 148): a list of commonly used passwords shipped in a
 * package (the adapter's). A password is refused when it is on the list, or is a word of the list
 * dressed up to meet the password rule: capitals, the usual letter-for-symbol swaps (p@ssw0rd), and
 * digits or symbols before or after it (Summer2024!, Welcome#1) — the first guesses of any cracker.
 */
export interface CommonPasswordsPort {
  /** Is this (lower-case) text on the list? */
  readonly listed: (text: string) => boolean;
}
export class CommonPasswords extends Context.Tag("crown/CommonPasswords")<CommonPasswords, CommonPasswordsPort>() {}

const SWAPS: Readonly<Record<string, string>> = { "@": "a", "4": "a", "8": "b", "3": "e", "6": "g", "9": "g", "1": "i", "!": "i", "0": "o", "$": "s", "5": "s", "7": "t", "+": "t", "2": "z" };
/** Shorter cores are too often a piece of a strong password to refuse on (ab, xy). */
const MIN_CORE = 4;

const strip = (text: string) => text.replace(/^[^a-z]+|[^a-z]+$/g, "");
const unswap = (text: string) => [...text].map((ch) => SWAPS[ch] ?? ch).join("");

/** The forms of a password a cracker's first guesses would also try, each lower-case. */
export const guessableForms = (password: string): ReadonlyArray<string> => {
  const lower = password.toLowerCase();
  const dressed = [unswap(lower), strip(lower), unswap(strip(lower))].filter((form) => form.length >= MIN_CORE);
  return [...new Set([lower, ...dressed])];
};

/** Is the password one attackers try first? */
export const isCommonPassword = (list: CommonPasswordsPort, password: string) => guessableForms(password).some((form) => list.listed(form));

/** Fails with 422 on `field`, naming the reason, when the password is one attackers try first. */
export const refuseCommonPassword = (password: string, field = "password") =>
  Effect.gen(function* () {
    const list = yield* CommonPasswords;
    if (isCommonPassword(list, password)) return yield* ValidationFailed.field(field, MESSAGES.commonPassword);
  });
