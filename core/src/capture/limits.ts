// The upload limits of capture-and-reporting.md §5, in one plain module: the server's upload
// pipeline (report/) and the browser (portal and kiosk, before anything is sent) import them from
// here, and nothing here pulls Effect into a browser bundle.

export const UPLOAD_LIMITS = {
  maxFiles: 20,
  maxBytes: 100 * 1024 * 1024,
  extensions: ["jpg", "jpeg", "png", "mp4", "mov"],
} as const;

export const VIDEO_EXTENSIONS = ["mp4", "mov"] as const;

/** The media types of those formats: with the extensions, what a file picker offers (`accept`). */
export const UPLOAD_MEDIA_TYPES = ["image/jpeg", "image/png", "video/mp4", "video/quicktime"] as const;
export const UPLOAD_ACCEPT = [...UPLOAD_LIMITS.extensions.map((e) => `.${e}`), ...UPLOAD_MEDIA_TYPES].join(",");

/** The spec's three messages for a selection that breaks a limit. */
export const UPLOAD_RULE_MESSAGES = {
  tooMany: "You can select upto 20 files to upload",
  tooLarge: "Please select files with size upto 100 MB",
  format: "Files with only .jpg, .jpeg, .png, .mov or .mp4 formats are allowed for upload",
} as const;

export const extensionOf = (name: string) => (/\.([A-Za-z0-9]+)$/.exec(name)?.[1] ?? "").toLowerCase();
export const isVideoName = (name: string) => (VIDEO_EXTENSIONS as ReadonlyArray<string>).includes(extensionOf(name));

/** A video the capture page may upload with its shots: an accepted video format within the size limit. */
export const uploadableVideo = (file: { name: string; size: number }) => isVideoName(file.name) && file.size <= UPLOAD_LIMITS.maxBytes;

/** The first rule a selection breaks, with the spec's message, or null. */
export const checkSelection = (files: ReadonlyArray<{ name: string; size: number }>): string | null => {
  if (files.length > UPLOAD_LIMITS.maxFiles) return UPLOAD_RULE_MESSAGES.tooMany;
  if (files.some((f) => !(UPLOAD_LIMITS.extensions as ReadonlyArray<string>).includes(extensionOf(f.name)))) return UPLOAD_RULE_MESSAGES.format;
  if (files.some((f) => f.size > UPLOAD_LIMITS.maxBytes)) return UPLOAD_RULE_MESSAGES.tooLarge;
  return null;
};
