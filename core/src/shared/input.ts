/**
 * What any input must be before it reaches a use case or the database, whatever its field:
 * not nested deeper than a form ever is, and text PostgreSQL can store (no NUL byte, no lone
 * UTF-16 surrogate). Shared by the JSON bodies, multipart fields, paths and query strings.
 */

/** Deeper than any request of the API (the deepest is a list of objects in an object). */
export const MAX_INPUT_DEPTH = 32;

export const INPUT_MESSAGES = {
  tooDeep: "The request is nested too deeply.",
  badText: "Contains characters that cannot be stored (a NUL byte or a broken character).",
  badFileName: "A file's name must be at most 255 characters of valid text, without control characters or path separators (/ or \\).",
  brokenPart: "A part of the form could not be read: its headers (a file's name, for one) hold characters that are not allowed.",
} as const;

/** The longest file name kept (most file systems' limit). */
export const MAX_FILE_NAME_LENGTH = 255;

// Control characters (C0, DEL, C1), path separators, and U+FFFD, which is what bytes that were not UTF-8 decode to.
const BAD_IN_FILE_NAME = /[\u0000-\u001f\u007f-\u009f/\\\uFFFD]/;

/**
 * True for a file name no upload keeps: too long, not valid text, a control character, a path
 * separator or a name that is only dots. An empty name is allowed (the file gets its kind's name).
 * One rule for every call that takes files.
 */
export const isBadFileName = (name: string): boolean =>
  [...name].length > MAX_FILE_NAME_LENGTH || BAD_IN_FILE_NAME.test(name) || isUnstorableText(name) || /^\.+$/.test(name);

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True for text PostgreSQL cannot store or that is not valid Unicode. */
export const isUnstorableText = (text: string): boolean => UNSTORABLE.test(text);

/** Text made storable for display-only uses (a file's name): NUL bytes dropped, broken characters replaced. */
export const storableText = (text: string): string =>
  text.replace(/\u0000/g, "").replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

export interface InputProblem {
  /** The field at fault, as a dotted path ("body" for the whole input). */
  readonly field: string;
  readonly message: string;
}

/**
 * The first problem of an input, or null. Walks without recursion (a hostile body may nest
 * thousands of levels) and stops at the first problem, so its cost is bounded by the body's size.
 */
export const inputProblem = (input: unknown): InputProblem | null => {
  const stack: Array<{ value: unknown; path: string[]; depth: number }> = [{ value: input, path: [], depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    const field = path.length > 0 ? path.join(".") : "body";
    if (typeof value === "string") {
      if (isUnstorableText(value)) return { field, message: INPUT_MESSAGES.badText };
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth >= MAX_INPUT_DEPTH) return { field: path[0] ?? "body", message: INPUT_MESSAGES.tooDeep };
    for (const [key, child] of Object.entries(value)) {
      if (isUnstorableText(key)) return { field, message: INPUT_MESSAGES.badText };
      stack.push({ value: child, path: [...path, key], depth: depth + 1 });
    }
  }
  return null;
};
