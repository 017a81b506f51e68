import { Effect, Option, Schema } from "effect";
import { UPLOAD_RULE_MESSAGES } from "../capture/limits.ts";
import { publishToAll } from "../live/service.ts";
import { babyName } from "../onboarding/model.ts";
import { Conflict, ValidationFailed } from "../shared/errors.ts";
import { audit, now, Random, transaction } from "../shared/ports.ts";
import { OneOf, Required, validate } from "../shared/validation.ts";
import type { Users } from "../accounts/model.ts";
import type { Delegations } from "../practice/model.ts";
import { capturableBaby, capturesInto, liveAudience, reportNotFound, visibleReport } from "./access.ts";
import { nextReportStatus, type ReportEvent, type ReportStatus } from "./lifecycle.ts";
import {
  ANALYSIS_TYPES,
  ANALYZE_REPORT_JOB,
  analysisJobKey,
  type Attachment,
  type AttachmentKind,
  Attachments,
  JobQueue,
  type Report,
  Reports,
} from "./model.ts";

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

export const PrepareRequest = Schema.Struct({
  baby_identifier: Required("Baby"),
  analysis_type: OneOf(ANALYSIS_TYPES, "Analysis type"),
});
export const ReportIdentifierRequest = Schema.Struct({ report_identifier: Required("Report identifier") });


/**
 * Applies a lifecycle event to a locked report, or fails with 409 naming its status. A change of
 * status is published live to the uploader (a staff member only while she still acts for the
 * physician) and the physician, in the caller's transaction.
 */
export const advance = (report: Report, event: ReportEvent, photos = 0): Effect.Effect<ReportStatus, Conflict, Users | Delegations> => {
  const next = nextReportStatus(report.status, { photos }, event);
  if (next === null) return Effect.fail(new Conflict({ message: `This report cannot do that while it is ${report.status.replace("_", " ")}.` }));
  if (next === report.status) return Effect.succeed(next);
  const data = { report_identifier: report.id, baby_identifier: report.babyId, baby_name: report.babyName, status: next, previous_status: report.status };
  return Effect.as(Effect.flatMap(liveAudience(report), (ids) => publishToAll(ids, "report.status", data)), next);
};

export const presentAttachment = (a: Attachment) => ({
  identifier: a.id,
  report_identifier: a.reportId,
  file_type: a.kind === "video" ? "video" : "image",
  file_name: a.fileName,
  extension: a.extension,
  size: a.size,
  sha256: a.sha256,
  uploaded_at: a.createdAt.toISOString(),
});

// ---- Prepare ---------------------------------------------------------------------------------------

export const prepareReport = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(PrepareRequest, input);
    const { caller, baby } = yield* capturableBaby(request.baby_identifier);
    const at = yield* now;
    const report: Report = {
      id: (yield* Random).identifier(),
      babyId: baby.id,
      babyName: babyName(baby),
      uploaderId: caller.user.id,
      physicianId: baby.physicianId,
      analysisType: request.analysis_type,
      status: "draft",
      round: 1,
      submittedAt: null,
      analyzedAt: null,
      publishedAt: null,
      reviewerId: null,
      reviewNote: null,
      recaptureReasons: [],
      analysis: null,
      uploadCut: null,
      version: 0,
      createdAt: at,
      updatedAt: at,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* Reports).insert(report);
        yield* audit({ action: "report.prepare", actorId: caller.user.id, subjectId: report.id, details: { baby: baby.id } });
      }),
    );
    return { report_identifier: report.id, status: report.status };
  });

// ---- Upload (upload.ts) ---------------------------------------------------------------------------

/** Files and photos of the report's current round. */
export const roundCounts = (reportId: string, round: number) =>
  Effect.map(Effect.flatMap(Attachments, (a) => a.listByReport(reportId)), (all) => {
    const mine = all.filter((a) => a.round === round && a.kind !== "frame");
    return { files: mine.length, photos: mine.filter((a) => a.kind === "image").length };
  });

// ---- Finalize --------------------------------------------------------------------------------------

/**
 * `POST /report/finalize`: the report is submitted and its analysis job enqueued in the same
 * transaction. Finalizing again is harmless: it answers the same and enqueues nothing.
 */
export const finalizeReport = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ReportIdentifierRequest, input);
    const { caller, report: seen, baby, relation } = yield* visibleReport(request.report_identifier);
    if (!capturesInto(caller, seen, baby, relation)) return yield* reportNotFound();
    const reports = yield* Reports;
    return yield* transaction(
      Effect.gen(function* () {
        const report = Option.getOrThrow(yield* reports.lock(seen.id));
        if (report.status !== "draft" && report.status !== "uploading") {
          if (report.status === "recapture_requested") return yield* ValidationFailed.field("attachments", UPLOAD_MESSAGES.noPhoto);
          return { report_identifier: report.id, status: report.status, repeated: true };
        }
        const counts = yield* roundCounts(report.id, report.round);
        if (counts.photos === 0) return yield* ValidationFailed.field("attachments", UPLOAD_MESSAGES.noPhoto);
        const status = yield* advance(report, { type: "FINALIZE" }, counts.photos);
        const at = yield* now;
        yield* reports.update(report.id, { status, submittedAt: at, updatedAt: at, analysis: null });
        yield* (yield* JobQueue).enqueue({
          name: ANALYZE_REPORT_JOB,
          payload: { reportId: report.id, round: report.round },
          key: analysisJobKey(report.id, report.round),
        });
        yield* audit({ action: "report.finalize", actorId: caller.user.id, subjectId: report.id, details: { round: report.round, files: counts.files } });
        return { report_identifier: report.id, status, repeated: false };
      }),
    );
  });
