import type { AggregatedIndices } from "../measurement/aggregate.ts";
import type { IndexAgreement } from "../measurement/agreement.ts";
import type { Segment } from "../measurement/geometry.ts";
import type { Point } from "../measurement/image.ts";
import type { MeasuringModel } from "../measurement/model.ts";
import type { VerdictOutcome } from "../measurement/verdict.ts";
import type { PageOf, PageRequest } from "../shared/page.ts";
import type { ReportStatus } from "./lifecycle.ts";

/**
 * The report's entities as plain data (no Effect): the browser imports their types, e.g. the
 * overlay's `PhotoGeometry`. The ports that store them are in model.ts.
 */
/** Reports, their attachments, measurements, review actions, published versions and read flags. */

export const ANALYSIS_TYPES = ["head_ci_cvai_analysis"] as const;
export type AnalysisType = (typeof ANALYSIS_TYPES)[number];

/** Why a report needs a person's eye, or what the analysis could not do (shown in review and in the report). */
export interface AnalysisSummary extends AggregatedIndices {
  /** Photos and frames measured in this round. */
  readonly measured: number;
  readonly problems: ReadonlyArray<string>;
  /** CI and CVAI of the counted photos against the model's error (absent on summaries made before it was checked). */
  readonly agreement?: ReadonlyArray<IndexAgreement>;
  /** Counted photos the reviewer has neither accepted nor rejected: while the photos disagree, this must be 0 to publish. */
  readonly unconfirmed?: number;
  /**
   * The models that measured the counted photos, as recorded when they measured (ADR 0066). Absent
   * when any counted photo's model is unknown (measured before models were recorded) or none counted.
   */
  readonly models?: ReadonlyArray<MeasuringModel>;
}

export interface Report {
  readonly id: string;
  readonly babyId: string;
  /** The baby's name when the report was prepared (searchable without a join; refreshed on publish). */
  readonly babyName: string;
  /** Who prepared the report and uploads to it. */
  readonly uploaderId: string;
  /** The baby's physician at preparation; null for 'No Physician'. */
  readonly physicianId: string | null;
  readonly analysisType: AnalysisType;
  readonly status: ReportStatus;
  /** 1 for the first upload; a retake after a recapture request starts round 2, and so on. */
  readonly round: number;
  readonly submittedAt: Date | null;
  readonly analyzedAt: Date | null;
  readonly publishedAt: Date | null;
  readonly reviewerId: string | null;
  readonly reviewNote: string | null;
  readonly recaptureReasons: ReadonlyArray<string>;
  readonly analysis: AnalysisSummary | null;
  /** The last upload that ended early (connection cut), until the next complete one. */
  readonly uploadCut: UploadCut | null;
  /** Published versions so far (0 until the first publish). */
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
/** An upload that ended before its body did: only its whole files were kept (ADR 0028). */
export interface UploadCut {
  /** ISO 8601 time of the cut. */
  readonly at: string;
  /** The names of the whole files kept from that upload. */
  readonly kept: ReadonlyArray<string>;
}

export type ReportPatch = Partial<Omit<Report, "id" | "babyId" | "uploaderId" | "createdAt" | "analysisType">>;

export type AttachmentKind = "image" | "video" | "frame";

export interface Attachment {
  readonly id: string;
  readonly reportId: string;
  readonly round: number;
  readonly kind: AttachmentKind;
  /** The name the client gave (display only; never used as a key). */
  readonly fileName: string;
  /** Decided by the bytes: jpg, png, mp4 or mov. */
  readonly extension: string;
  readonly mime: string;
  readonly size: number;
  readonly sha256: string;
  readonly blobKey: string;
  /** For frames: the video they were taken from and the time in seconds. */
  readonly sourceId: string | null;
  readonly frameTime: number | null;
  readonly createdAt: Date;
}

/** What the overlay draws, in the pixels of the EXIF-oriented (and possibly scaled) photo. */
export interface PhotoGeometry {
  readonly imageWidth: number;
  readonly imageHeight: number;
  readonly outline: ReadonlyArray<Point>;
  readonly noseTip: Point | null;
  readonly centre: Point | null;
  readonly apAxis: Point | null;
  readonly length: number | null;
  readonly width: number | null;
  readonly lengthEnds: Segment | null;
  readonly widthEnds: Segment | null;
  readonly diagonals: { readonly a: number; readonly b: number; readonly endpoints: { readonly a: Segment; readonly b: Segment } } | null;
  readonly sticker: { readonly centre: Point; readonly radius: number } | null;
}

export type ReviewDecision = "accepted" | "rejected";

/** What the model answered for a photo, kept beside a reviewer's correction (the labelled example's other half). */
export interface ModelAnswer {
  readonly ci: number | null;
  readonly cvai: number | null;
  readonly cvaMm: number | null;
  readonly geometry: PhotoGeometry;
}

export interface Measurement {
  readonly attachmentId: string;
  readonly reportId: string;
  readonly round: number;
  /** The automatic verdict: accepted iff verdict === "accept"; "refer" waits for a reviewer. */
  readonly accepted: boolean;
  readonly verdict: VerdictOutcome;
  readonly reasons: ReadonlyArray<string>;
  readonly qualityMargin: number | null;
  readonly ci: number | null;
  readonly cvai: number | null;
  readonly cvaMm: number | null;
  readonly geometry: PhotoGeometry | null;
  /** The photo could not be read or measured at all. */
  readonly error: string | null;
  /** The reviewer's decision, which wins over the automatic verdict. */
  readonly decision: ReviewDecision | null;
  readonly noseCorrected: boolean;
  /** The reviewer redrew or moved the outline (the figures are the reviewer's, `modelAnswer` the model's). */
  readonly outlineCorrected: boolean;
  /** The model's own answer, kept when a reviewer first corrects the photo; null while the figures are the model's. */
  readonly modelAnswer: ModelAnswer | null;
  /** Who last corrected the outline or the nose tip, and when (with `model`, the model whose answer was corrected). */
  readonly correctedBy: string | null;
  readonly correctedAt: Date | null;
  /** Why the reviewer rejected the photo: one of the quiz's eight bad-image reasons. */
  readonly decisionReason: string | null;
  /** The model that measured, at measuring time; null when none did (unreadable) or for rows measured before it was recorded. */
  readonly model: MeasuringModel | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
export const isCounted = (m: Pick<Measurement, "accepted" | "decision" | "ci">) => (m.decision ?? (m.accepted ? "accepted" : "rejected")) === "accepted" && m.ci !== null;

/** What a reviewer did, as the review log (and the audit's `review.*` actions) names it. */
export const REVIEW_ACTIONS = ["photo_decision", "nose_tip_corrected", "outline_corrected", "outline_reset", "note", "published", "recapture_requested", "reopened"] as const;
export type ReviewActionName = (typeof REVIEW_ACTIONS)[number];

export interface ReviewAction {
  readonly id: string;
  readonly reportId: string;
  readonly reviewerId: string;
  readonly action: string;
  readonly details: Record<string, unknown>;
  readonly at: Date;
}

export interface ReportVersion {
  readonly id: string;
  readonly reportId: string;
  readonly version: number;
  readonly blobKey: string;
  readonly sha256: string;
  readonly size: number;
  readonly publishedBy: string;
  readonly publishedAt: Date;
  /** The figures printed in this version (the PDF is immutable; these are for lists and charts). */
  readonly summary: AnalysisSummary;
}

export type ResultFilter = "all" | "new" | "reviewed";

/** What a list reads of a report: never the analysis JSON, the upload cut or the review note (ADR 0072). */
export type ReportListing = Omit<Report, "analysis" | "uploadCut" | "reviewNote">;
/** A listed report with its summary, for the lists that show the figures (parent results, review queue). */
export type ReportWithSummary = ReportListing & Pick<Report, "analysis">;

/** A published report in a physician's results list, with that physician's read flag and the baby's parent (joined). */
export interface ResultRow {
  readonly report: ReportListing;
  readonly read: boolean;
  readonly parent: { readonly firstName: string; readonly lastName: string } | null;
  /** The caregiver e-mail the practice typed, for a baby whose caregiver has no linked account yet. */
  readonly caregiverEmail: string | null;
}

/** A report waiting for review with what the queue shows of its baby (joined; null when the baby is gone). */
export interface QueueRow {
  readonly report: ReportWithSummary;
  readonly baby: { readonly firstName: string; readonly middleName: string | null; readonly lastName: string; readonly dateOfBirth: string } | null;
}

export type Page<T> = PageOf<T>;
export type { PageRequest };
