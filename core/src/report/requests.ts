import { Schema } from "effect";
import { UPLOAD_RULE_MESSAGES } from "../capture/limits.ts";
import { OneOf, OptionalText, Required } from "../shared/validation.ts";
import { fill } from "../shared/i18n.ts";
import { REPORT_STATUSES, type ReportStatus } from "./lifecycle.ts";
import { ANALYSIS_TYPES } from "./model.ts";
import { OptionalPerPage } from "../shared/page.ts";

/** The report feature's requests (each parsed before anything else) and its messages, every one defined here. */

/** The spec's messages (capture-and-reporting.md §5) and the pipeline's own. */
export const UPLOAD_MESSAGES = {
  ...UPLOAD_RULE_MESSAGES,
  prepared: "Report prepared successfully",
  uploaded: "Images Uploaded Successfully",
  finalized: "We will review your photos and videos and get back to you soon",
  noPhoto: "Please upload at least one photo before finalizing the report.",
  noFiles: "Please choose at least one file to upload.",
  reportRequired: "Report identifier is required",
  closed: "This report no longer accepts files.",
  cutShort: "The upload ended before all files arrived; only the files that arrived whole were kept.",
} as const;

export const REVIEW_MESSAGES = {
  queue: "Review queue fetched successfully",
  detail: "Report fetched successfully",
  decided: "Photo decision saved",
  corrected: "Nose tip corrected and photo re-measured",
  noted: "Note saved",
  published: "Report published successfully",
  previewed: "Report preview rendered",
  recapture: "Recapture requested successfully",
  reopened: "Report reopened for review",
  noAccepted: "At least one accepted, measured photo is needed to publish the report.",
  badNose: "The head cannot be measured with the nose tip there: place it at the front of the head, away from its centre.",
  notReviewable: "This report is not waiting for a review.",
  noGeometry: "This photo has no head outline to re-measure.",
  reasonsRequired: "Please choose at least one reason for the recapture.",
  reasonUnknown: "Each reason must be one of the quiz's bad-image reasons.",
  changedWhilePublishing: "The report kept changing while it was being published. Please publish again.",
  decision: "Decision must be accept or reject",
  xNumber: "x must be a number",
  yNumber: "y must be a number",
  notAllowedWhile: "This report cannot do that while it is {status}.",
  outlineCorrected: "Outline corrected and photo re-measured",
  outlineReset: "The model's outline is back",
  notCorrected: "This photo has no correction to undo.",
  outlineTooFew: "An outline needs at least 6 points.",
  outlineTooMany: "An outline may have at most 2000 points.",
  outlineOutside: "Every point of the outline must lie on the photo.",
  outlineCrossing: "The outline must not cross itself.",
  outlinePoints: "The outline must be a list of points with numbers x and y.",
  rejectReason: "Please choose why the photo is rejected: one of the quiz's bad-image reasons.",
  noImage: "This photo could not be read, so it cannot be outlined.",
} as const;

/** A report's status as a message names it ("in review"); other languages translate these words (ADR 89). */
export const REPORT_STATUS_WORDS: { readonly [S in ReportStatus]: string } = Object.fromEntries(
  REPORT_STATUSES.map((s) => [s, s.replace("_", " ")]),
) as { readonly [S in ReportStatus]: string };

export const RESULT_MESSAGES = {
  results: "Results fetched successfully",
  uploads: "Uploads fetched successfully",
  list: "Reports fetched successfully",
  downloaded: "Report downloaded successfully",
  attachment: "Attachment fetched successfully",
} as const;

/** What the analysis could not do, written down for the reviewer and the report. */
export const ANALYSIS_PROBLEMS = {
  noModel: "The head-contour model is not installed on the server, so no photo was measured automatically.",
  unreadable: (name: string) => `${name}: the file could not be read as an image.`,
  noAccepted: "No photo passed the automatic quality check.",
  noFrames: (name: string, why: string) => `${name}: frames could not be taken from the video (${why}). The video is kept for review.`,
  noFfmpeg: (why: string) => `Videos were not analysed: ${why}. The videos are kept for review.`,
  failed: "The automatic analysis failed after several attempts; please review the photos by hand",
} as const;

/** A lifecycle event refused in the report's status (409, api-contract.md: a state conflict). */
export const notAllowedWhile = (status: string) => fill(REVIEW_MESSAGES.notAllowedWhile, { status: status.replace("_", " ") });

// ---- Capture ----------------------------------------------------------------------------------------

export const PrepareRequest = Schema.Struct({
  baby_identifier: Required("Baby"),
  analysis_type: OneOf(ANALYSIS_TYPES, "Analysis type"),
});
export const ReportIdentifierRequest = Schema.Struct({ report_identifier: Required("Report identifier") });

// ---- Review -----------------------------------------------------------------------------------------

export const QueueRequest = Schema.Struct({
  per_page: OptionalPerPage,
});

export const DecisionRequest = Schema.Struct({
  attachment_identifier: Required("Attachment"),
  decision: Schema.Literal("accept", "reject", "accepted", "rejected").annotations({ message: () => REVIEW_MESSAGES.decision }),
  /** Required with a reject: one of the quiz's eight bad-image reasons (checked by the use case). */
  reason: Schema.optionalWith(Schema.String, { nullable: true }),
});

const Coordinate = Schema.Number.pipe(Schema.finite());
const PhotoPoint = Schema.Struct({ x: Coordinate, y: Coordinate });

/** The reviewer's outline (photo pixels of the overlay) and, optionally, the nose tip with it. */
export const OutlineRequest = Schema.Struct({
  attachment_identifier: Required("Attachment"),
  // The count is checked by the use case (`outlineProblem`); this bound only stops a huge body early.
  outline: Schema.Array(PhotoPoint).pipe(Schema.maxItems(4000)).annotations({ message: () => REVIEW_MESSAGES.outlinePoints }),
  nose_tip: Schema.optionalWith(PhotoPoint.annotations({ message: () => REVIEW_MESSAGES.outlinePoints }), { nullable: true }),
});

export const AttachmentRequest = Schema.Struct({ attachment_identifier: Required("Attachment") });

export const NoseTipRequest = Schema.Struct({
  attachment_identifier: Required("Attachment"),
  x: Schema.Union(Schema.Number, Schema.NumberFromString).pipe(Schema.finite()).annotations({ message: () => REVIEW_MESSAGES.xNumber }),
  y: Schema.Union(Schema.Number, Schema.NumberFromString).pipe(Schema.finite()).annotations({ message: () => REVIEW_MESSAGES.yNumber }),
});

export const NoteRequest = Schema.Struct({ note: OptionalText(2000) });

export const RecaptureRequest = Schema.Struct({
  reasons: Schema.Array(Schema.String),
  note: OptionalText(2000),
});

// ---- Results ----------------------------------------------------------------------------------------

const PerPage = OptionalPerPage;
const Search = Schema.optionalWith(Schema.String.pipe(Schema.maxLength(100)), { nullable: true });
const FilterType = Schema.optionalWith(Schema.Literal("all", "new", "reviewed").annotations({ message: () => "Type must be one of all, new or reviewed" }), {
  nullable: true,
});
const OptionalId = Schema.optionalWith(Schema.String, { nullable: true });

export const ResultsRequest = Schema.Struct({
  per_page: PerPage,
  search: Search,
  type: FilterType,
  results_for_staff: Schema.optionalWith(Schema.Union(Schema.Boolean, Schema.String), { nullable: true }),
  physician_id: OptionalId,
  physician_identifier: OptionalId,
});
export const ParentResultsRequest = Schema.Struct({ per_page: PerPage, search: Search, type: FilterType, baby_identifier: OptionalId });
export const ListRequest = Schema.Struct({
  per_page: PerPage,
  search: Search,
  type: FilterType,
  baby_identifier: OptionalId,
  physician_id: OptionalId,
  physician_identifier: OptionalId,
});
export const UploadsRequest = Schema.Struct({ per_page: PerPage, baby_identifier: Schema.String.pipe(Schema.minLength(1)).annotations({ message: () => "Baby is required" }) });

/** Search only starts past 2 characters (the spec's client rule, kept on the server too). */
export const searchText = (search: string | null | undefined) => {
  const s = search?.trim() ?? "";
  return s.length > 2 ? s : null;
};
