import type { Session } from "../machines/session.ts";

/** Capture constants of the spec (section 9). */
export const CAPTURE_SECONDS = 10;
export const AUTO_CAPTURE_SHOTS = 10;

/** Physicians need at least 3 good shots; everyone else at least 5. */
export const minGoodShots = (s: Pick<Session, "userRole"> | null) => (s?.userRole === "physician" ? 3 : 5);

export const isProvider = (s: Pick<Session, "userRole"> | null) => s?.userRole === "physician" || s?.userRole === "physician_staff";

/** Upload limits (spec section 5), checked before anything is sent. */
export const UPLOAD_LIMITS = {
  maxFiles: 20,
  maxBytes: 100 * 1024 * 1024,
  extensions: ["jpg", "jpeg", "png", "mp4", "mov"],
  minPhotos: 5,
} as const;

export const UPLOAD_RULE_MESSAGES = {
  tooMany: "You can select upto 20 files to upload",
  tooLarge: "Please select files with size upto 100 MB",
  format: "Files with only .jpg, .jpeg, .png, .mov or .mp4 formats are allowed for upload",
} as const;

export const extensionOf = (name: string) => (/\.([A-Za-z0-9]+)$/.exec(name)?.[1] ?? "").toLowerCase();
export const isVideoName = (name: string) => ["mp4", "mov"].includes(extensionOf(name));

/** The first rule a selection breaks, with the spec's message, or null. */
export const checkSelection = (files: ReadonlyArray<{ name: string; size: number }>): string | null => {
  if (files.length > UPLOAD_LIMITS.maxFiles) return UPLOAD_RULE_MESSAGES.tooMany;
  if (files.some((f) => !(UPLOAD_LIMITS.extensions as ReadonlyArray<string>).includes(extensionOf(f.name)))) return UPLOAD_RULE_MESSAGES.format;
  if (files.some((f) => f.size > UPLOAD_LIMITS.maxBytes)) return UPLOAD_RULE_MESSAGES.tooLarge;
  return null;
};
