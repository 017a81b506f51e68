import { Context, Effect, Option } from "effect";
import { UPLOAD_LIMITS } from "../capture/limits.ts";
import { FALLBACK_MEASUREMENT_ERROR, type MeasurementError } from "../measurement/agreement.ts";
import type { RgbImage } from "../measurement/image.ts";
import type { AnalyzeOptions } from "../measurement/analyze.ts";
import type { AnalysisSummary, Attachment, Measurement, PhotoGeometry, Page, PageRequest, QueueRow, Report, ReportListing, ReportPatch, ReportVersion, ReportWithSummary, ResultFilter, ResultRow, ReviewAction } from "./entities.ts";
import type { Language } from "../shared/i18n.ts";

/** The ports of the report feature (entities in entities.ts, re-exported here), its settings and its job. */
export * from "./entities.ts";

export interface ReportsPort {
  readonly insert: (report: Report) => Effect.Effect<void>;
  readonly findById: (id: string) => Effect.Effect<Option.Option<Report>>;
  /** The report, locked for the rest of the transaction (SELECT … FOR UPDATE). */
  readonly lock: (id: string) => Effect.Effect<Option.Option<Report>>;
  readonly update: (id: string, patch: ReportPatch) => Effect.Effect<void>;
  /** Reports waiting for a reviewer (analyzed or in review), oldest submission first, with their babies. */
  readonly reviewQueue: (page: PageRequest) => Effect.Effect<Page<QueueRow>>;
  /** A baby's published reports, oldest first. */
  readonly publishedForBaby: (babyId: string) => Effect.Effect<ReadonlyArray<Report>>;
  /** The published reports of these babies, oldest first (one query for a whole page of the queue). */
  readonly publishedForBabies: (babyIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<ReportWithSummary>>;
  /**
   * Published reports of a physician, newest first, with that physician's read flag and the parent's
   * name. Lists read only the columns they show; `total` is exact up to a threshold, estimated beyond (ADR 0072).
   */
  readonly resultsForPhysician: (
    physicianId: string,
    query: { search: string | null; filter: ResultFilter },
    page: PageRequest,
  ) => Effect.Effect<Page<ResultRow>>;
  /** Published reports of these babies, newest first. */
  readonly resultsForBabies: (babyIds: ReadonlyArray<string>, query: { search: string | null }, page: PageRequest) => Effect.Effect<Page<ReportWithSummary>>;
  /** Every report of a baby that has files (any status past draft), newest first. */
  readonly uploadsForBaby: (babyId: string, page: PageRequest) => Effect.Effect<Page<ReportListing>>;
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
  /** The language it is printed in (its reader's, ADR 77); English when absent. */
  readonly language?: Language;
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
