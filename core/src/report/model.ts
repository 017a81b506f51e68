import { Context, Effect, Option } from "effect";
import { UPLOAD_LIMITS } from "../capture/limits.ts";
import type { AggregatedIndices } from "../measurement/aggregate.ts";
import { FALLBACK_MEASUREMENT_ERROR, type IndexAgreement, type MeasurementError } from "../measurement/agreement.ts";
import type { Segment } from "../measurement/geometry.ts";
import type { Point, RgbImage } from "../measurement/image.ts";
import type { AnalyzeOptions } from "../measurement/analyze.ts";
import type { VerdictOutcome } from "../measurement/verdict.ts";
import type { PageOf, PageRequest } from "../onboarding/model.ts";
import type { ReportStatus } from "./lifecycle.ts";

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
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
export const isCounted = (m: Pick<Measurement, "accepted" | "decision" | "ci">) => (m.decision ?? (m.accepted ? "accepted" : "rejected")) === "accepted" && m.ci !== null;

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

/** A published report in a physician's or parent's results list. */
export interface ResultRow {
  readonly report: Report;
  /** For the physician of the query; always true for parents' lists. */
  readonly read: boolean;
}

export type Page<T> = PageOf<T>;
export type { PageRequest };

export interface ReportsPort {
  readonly insert: (report: Report) => Effect.Effect<void>;
  readonly findById: (id: string) => Effect.Effect<Option.Option<Report>>;
  /** The report, locked for the rest of the transaction (SELECT … FOR UPDATE). */
  readonly lock: (id: string) => Effect.Effect<Option.Option<Report>>;
  readonly update: (id: string, patch: ReportPatch) => Effect.Effect<void>;
  /** Reports waiting for a reviewer (analyzed or in review), oldest submission first. */
  readonly reviewQueue: (page: PageRequest) => Effect.Effect<Page<Report>>;
  /** A baby's published reports, oldest first. */
  readonly publishedForBaby: (babyId: string) => Effect.Effect<ReadonlyArray<Report>>;
  /** Published reports of a physician, newest first, with that physician's read flag. */
  readonly resultsForPhysician: (
    physicianId: string,
    query: { search: string | null; filter: ResultFilter },
    page: PageRequest,
  ) => Effect.Effect<Page<ResultRow>>;
  /** Published reports of these babies, newest first. */
  readonly resultsForBabies: (babyIds: ReadonlyArray<string>, query: { search: string | null }, page: PageRequest) => Effect.Effect<Page<Report>>;
  /** Every report of a baby that has files (any status past draft), newest first. */
  readonly uploadsForBaby: (babyId: string, page: PageRequest) => Effect.Effect<Page<Report>>;
  /** The last upload (finalize) per baby, for reminders. */
  readonly lastSubmitted: (babyIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, Date>>;
}
export class Reports extends Context.Tag("crown/Reports")<Reports, ReportsPort>() {}

export interface AttachmentsPort {
  readonly insert: (attachment: Attachment) => Effect.Effect<void>;
  readonly findById: (id: string) => Effect.Effect<Option.Option<Attachment>>;
  /** Every attachment of a report (all rounds, frames too), in upload order. */
  readonly listByReport: (reportId: string) => Effect.Effect<ReadonlyArray<Attachment>>;
  readonly listByReports: (reportIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Attachment>>;
  /** The attachment of this round with these bytes, if one was stored already. */
  readonly findBySha256: (reportId: string, round: number, sha256: string) => Effect.Effect<Option.Option<Attachment>>;
}
export class Attachments extends Context.Tag("crown/Attachments")<Attachments, AttachmentsPort>() {}

export interface MeasurementsPort {
  /** Insert or replace the measurement of an attachment (a retried analysis writes the same row). */
  readonly upsert: (measurement: Measurement) => Effect.Effect<void>;
  readonly find: (attachmentId: string) => Effect.Effect<Option.Option<Measurement>>;
  readonly listByReport: (reportId: string) => Effect.Effect<ReadonlyArray<Measurement>>;
}
export class Measurements extends Context.Tag("crown/Measurements")<Measurements, MeasurementsPort>() {}

export interface ReviewActionsPort {
  readonly insert: (action: ReviewAction) => Effect.Effect<void>;
  readonly listByReport: (reportId: string) => Effect.Effect<ReadonlyArray<ReviewAction>>;
}
export class ReviewActions extends Context.Tag("crown/ReviewActions")<ReviewActions, ReviewActionsPort>() {}

export interface ReportVersionsPort {
  readonly insert: (version: ReportVersion) => Effect.Effect<void>;
  readonly latest: (reportId: string) => Effect.Effect<Option.Option<ReportVersion>>;
  readonly listByReports: (reportIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<ReportVersion>>;
}
export class ReportVersions extends Context.Tag("crown/ReportVersions")<ReportVersions, ReportVersionsPort>() {}

export interface ReadFlagsPort {
  /** Marks the report read for the physician; the first read time is kept. */
  readonly markRead: (reportId: string, physicianId: string, readBy: string, at: Date) => Effect.Effect<void>;
  readonly isRead: (reportId: string, physicianId: string) => Effect.Effect<boolean>;
  /** Forgets every read of the report: a new version is unread again for its physician. */
  readonly clear: (reportId: string) => Effect.Effect<void>;
}
export class ReadFlags extends Context.Tag("crown/ReadFlags")<ReadFlags, ReadFlagsPort>() {}

// ---- Infrastructure ports ----------------------------------------------------------------------

/** A SHA-256 computed chunk by chunk while a file streams through. */
export interface RunningDigest {
  readonly update: (chunk: Uint8Array) => void;
  /** Lower-case hex. */
  readonly hex: () => string;
}
export interface ContentHasherPort {
  readonly sha256: () => RunningDigest;
}
export class ContentHasher extends Context.Tag("crown/ContentHasher")<ContentHasher, ContentHasherPort>() {}

export interface EnqueueJob {
  readonly name: string;
  readonly payload: Record<string, unknown>;
  /** At most one pending job per key: enqueueing it again is a no-op. */
  readonly key?: string;
  readonly maxAttempts?: number;
}
/** A durable job queue in the same database: `enqueue` inside a transaction commits with it. */
export interface JobQueuePort {
  readonly enqueue: (job: EnqueueJob) => Effect.Effect<void>;
}
export class JobQueue extends Context.Tag("crown/JobQueue")<JobQueue, JobQueuePort>() {}

/** Decodes photos for the measurement and serves them to people. */
export interface ImagesPort {
  /** EXIF orientation applied, scaled so the longer side is at most `maxSide`; None when the bytes are no readable image. */
  readonly decode: (bytes: Uint8Array, maxSide: number) => Effect.Effect<Option.Option<RgbImage>>;
  /** A JPEG with the orientation applied and every metadata block (GPS included) removed. */
  readonly clean: (bytes: Uint8Array, maxSide?: number) => Effect.Effect<Option.Option<Uint8Array>>;
  readonly thumbnail: (bytes: Uint8Array, side: number) => Effect.Effect<Option.Option<Uint8Array>>;
}
export class Images extends Context.Tag("crown/Images")<Images, ImagesPort>() {}

export interface ExtractedFrame {
  readonly time: number;
  /** JPEG bytes, orientation applied. */
  readonly jpeg: Uint8Array;
}
/** Takes frames out of a video (ffmpeg on the server). */
export interface FrameExtractorPort {
  /** Null when frames can be extracted; otherwise why not (e.g. ffmpeg is not installed). */
  readonly unavailable: () => Effect.Effect<string | null>;
  /** Frames at `fps`, at most `max`; Left with a reason when the video cannot be read. */
  readonly extract: (video: ReadableStream<Uint8Array>, extension: string, fps: number, max: number) => Effect.Effect<
    { readonly frames: ReadonlyArray<ExtractedFrame> } | { readonly error: string }
  >;
}
export class FrameExtractor extends Context.Tag("crown/FrameExtractor")<FrameExtractor, FrameExtractorPort>() {}

/** Everything the PDF shows; the renderer only lays it out. */
export interface ReportDocument {
  readonly title: string;
  /** A reviewer's preview is marked as such on every page; only a published PDF is stored. */
  readonly kind: "published" | "preview";
  readonly baby: { readonly name: string; readonly dateOfBirth: string; readonly ageAtCapture: string; readonly gender: string | null };
  readonly capturedAt: Date;
  readonly publishedAt: Date;
  readonly version: number;
  readonly provider: string;
  readonly reviewer: string;
  readonly note: string | null;
  readonly summary: AnalysisSummary;
  readonly bands: { readonly ci: string | null; readonly cvai: string | null };
  readonly photos: ReadonlyArray<{ readonly label: string; readonly jpeg: Uint8Array; readonly geometry: PhotoGeometry; readonly ci: number | null; readonly cvai: number | null }>;
  readonly history: ReadonlyArray<{ readonly date: Date; readonly ci: number | null; readonly cvai: number | null }>;
  readonly disclaimer: string;
  readonly citation: string;
}
export interface ReportRendererPort {
  readonly render: (document: ReportDocument) => Effect.Effect<Uint8Array>;
}
export class ReportRenderer extends Context.Tag("crown/ReportRenderer")<ReportRenderer, ReportRendererPort>() {}

/** Pipeline settings. */
export interface ReportSettings {
  readonly maxFiles: number;
  readonly maxFileBytes: number;
  /** Photos are decoded at most this large for the measurement. */
  readonly analysisMaxSide: number;
  readonly videoFps: number;
  readonly framesPerVideo: number;
  /** Frames kept (the best) per video. */
  readonly keptFramesPerVideo: number;
  readonly analyze: AnalyzeOptions;
  /** The measuring model's error per photo, which decides when a session's photos disagree. */
  readonly measurementError: MeasurementError;
}
export const defaultReportSettings: ReportSettings = {
  maxFiles: UPLOAD_LIMITS.maxFiles,
  maxFileBytes: UPLOAD_LIMITS.maxBytes,
  analysisMaxSide: 1024,
  videoFps: 2,
  framesPerVideo: 24,
  keptFramesPerVideo: 5,
  analyze: {},
  measurementError: FALLBACK_MEASUREMENT_ERROR,
};
export class ReportConfig extends Context.Tag("crown/ReportConfig")<ReportConfig, ReportSettings>() {}

export const ANALYZE_REPORT_JOB = "analyze-report";
/** One analysis job per report and round: its queue key (a repeated enqueue of a waiting key is a no-op). */
export const analysisJobKey = (reportId: string, round: number) => `${ANALYZE_REPORT_JOB}:${reportId}:${round}`;
