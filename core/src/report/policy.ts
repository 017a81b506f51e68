import { Effect, Option } from "effect";
import { requireActive } from "../accounts/access.ts";
import { type AttachmentKind, defaultReportSettings, ReportConfig } from "./model.ts";

/** The report feature's limits and who acts on it, each defined once. */

/** The pipeline's settings, or their defaults when none are configured. */
export const reportSettings = Effect.map(Effect.serviceOption(ReportConfig), Option.getOrElse(() => defaultReportSettings));

/** The accepted formats, by the bytes' MIME type. `.jpeg` files are stored as `jpg`. */
export const ACCEPTED_FORMATS: Readonly<Record<string, { ext: string; kind: Exclude<AttachmentKind, "frame"> }>> = {
  "image/jpeg": { ext: "jpg", kind: "image" },
  "image/png": { ext: "png", kind: "image" },
  "video/mp4": { ext: "mp4", kind: "video" },
  "video/quicktime": { ext: "mov", kind: "video" },
};

/**
 * The most pixels a photo may have (ADR 0031): 40 MP, above any phone's camera; a small file of
 * 16000 × 16000 would cost gigabytes to decode. Read from the header, within its first HEADER_BYTES
 * (a JPEG's size comes after its EXIF block, at most 64 KB, and any other APP blocks; file-type
 * needs 4100 bytes to tell every accepted format).
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const HEADER_BYTES = 512 * 1024;

/** Reviews are done by Crown's reviewers, whose account is active. */
export const requireReviewer = requireActive("reviewer");

/** Photos printed in a report: the counted ones, most central CI first, at most six. */
export const MAX_PHOTOS_IN_REPORT = 6;

/** A publish renders from a fresh read at most this many times while review actions keep changing the report. */
export const PUBLISH_ATTEMPTS = 3;

/** The disclaimer printed on every report. */
export const REPORT_DISCLAIMER =
  "This report is a screening aid computed from photos. It is not a diagnosis and not a substitute for an examination by a doctor. " +
  "Please talk to your baby's doctor about these results and about any concern for your baby's head shape.";
