import { Effect, Exit, Option, Schema } from "effect";
import { publishToAll } from "../live/service.ts";
import { babyName } from "../onboarding/model.ts";
import { Conflict, TooLarge, ValidationFailed } from "../shared/errors.ts";
import { audit, BlobStore, ContentSniffer, now, Random, transaction } from "../shared/ports.ts";
import { OneOf, Required, validate } from "../shared/validation.ts";
import type { Users } from "../accounts/model.ts";
import type { Delegations } from "../practice/model.ts";
import { capturableBaby, capturesInto, liveAudience, reportNotFound, visibleReport } from "./access.ts";
import { acceptsFiles, nextReportStatus, type ReportEvent, type ReportStatus } from "./lifecycle.ts";
import {
  ANALYSIS_TYPES,
  ANALYZE_REPORT_JOB,
  type Attachment,
  type AttachmentKind,
  Attachments,
  ContentHasher,
  defaultReportSettings,
  JobQueue,
  type Report,
  ReportConfig,
  Reports,
} from "./model.ts";

/** The spec's messages (capture-and-reporting.md §5) and the pipeline's own. */
export const UPLOAD_MESSAGES = {
  tooMany: "You can select upto 20 files to upload",
  tooLarge: "Please select files with size upto 100 MB",
  format: "Files with only .jpg, .jpeg, .png, .mov or .mp4 formats are allowed for upload",
  prepared: "Report prepared successfully",
  uploaded: "Images Uploaded Successfully",
  finalized: "We will review your photos and videos and get back to you soon",
  noPhoto: "Please upload at least one photo before finalizing the report.",
  noFiles: "Please choose at least one file to upload.",
  reportRequired: "Report identifier is required",
  closed: "This report no longer accepts files.",
} as const;

/** The accepted formats, by the bytes' MIME type. `.jpeg` files are stored as `jpg`. */
export const ACCEPTED_FORMATS: Readonly<Record<string, { ext: string; kind: Exclude<AttachmentKind, "frame"> }>> = {
  "image/jpeg": { ext: "jpg", kind: "image" },
  "image/png": { ext: "png", kind: "image" },
  "video/mp4": { ext: "mp4", kind: "video" },
  "video/quicktime": { ext: "mov", kind: "video" },
};

/** Enough bytes for the sniffer to tell every accepted format (file-type reads up to 4100). */
export const SNIFF_BYTES = 4100;

export const PrepareRequest = Schema.Struct({
  baby_identifier: Required("Baby"),
  analysis_type: OneOf(ANALYSIS_TYPES, "Analysis type"),
});
export const ReportIdentifierRequest = Schema.Struct({ report_identifier: Required("Report identifier") });

const settings = Effect.map(Effect.serviceOption(ReportConfig), Option.getOrElse(() => defaultReportSettings));

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

// ---- Upload ----------------------------------------------------------------------------------------

/** One part of a multipart upload, in the order it arrives. A file's stream must be read (or cancelled) before the next part comes. */
export type UploadPart =
  | { readonly type: "field"; readonly name: string; readonly value: string }
  | { readonly type: "file"; readonly name: string; readonly fileName: string; readonly stream: ReadableStream<Uint8Array> };

/** Reads the first `n` bytes of a stream, and gives back a stream of the whole content. */
const peek = async (
  stream: ReadableStream<Uint8Array>,
  n: number,
): Promise<{ head: Uint8Array; whole: (onChunk: (chunk: Uint8Array) => Error | null) => ReadableStream<Uint8Array> }> => {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let done = false;
  while (length < n) {
    const next = await reader.read();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.byteLength;
  }
  const head = new Uint8Array(length);
  let offset = 0;
  for (const c of chunks) {
    head.set(c, offset);
    offset += c.byteLength;
  }
  // One stage only: each chunk is counted and hashed as it is handed on (no extra TransformStream,
  // which costs a copy of the queueing per chunk); `onChunk` may stop the stream with an error.
  const whole = (onChunk: (chunk: Uint8Array) => Error | null) => {
    let sentHead = false;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: Uint8Array | null = null;
        if (!sentHead) {
          sentHead = true;
          if (head.byteLength > 0) chunk = head;
          else if (done) return controller.close();
        }
        if (chunk === null) {
          if (done) return controller.close();
          const next = await reader.read();
          if (next.done) return controller.close();
          chunk = next.value;
        }
        const stop = onChunk(chunk);
        if (stop) {
          controller.error(stop);
          await reader.cancel(stop).catch(() => undefined);
          return;
        }
        controller.enqueue(chunk);
        if (sentHead && done && chunk === head) controller.close();
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
  };
  return { head: head.subarray(0, Math.min(head.byteLength, n)), whole };
};

interface StoredFile {
  readonly attachmentId: string;
  readonly fileName: string;
  readonly ext: string;
  readonly mime: string;
  readonly kind: Exclude<AttachmentKind, "frame">;
  readonly size: number;
  readonly sha256: string;
  readonly blobKey: string;
}

/**
 * Streams one file to the blob store while it arrives: the type decided by its first bytes, the
 * size counted and the SHA-256 computed chunk by chunk. Never holds the file in memory; a file
 * over the limit is cut off and its partial blob removed.
 */
const storeFile = (fileName: string, stream: ReadableStream<Uint8Array>) =>
  Effect.gen(function* () {
    const config = yield* settings;
    const { head, whole } = yield* Effect.promise(() => peek(stream, SNIFF_BYTES));
    const sniffed = head.byteLength === 0 ? Option.none() : yield* (yield* ContentSniffer).sniff(head);
    const format = Option.isSome(sniffed) ? ACCEPTED_FORMATS[sniffed.value.mime] : undefined;
    if (!format || Option.isNone(sniffed)) {
      yield* Effect.promise(() => whole(() => null).cancel().catch(() => undefined));
      return yield* ValidationFailed.field("attachments", UPLOAD_MESSAGES.format);
    }
    const digest = (yield* ContentHasher).sha256();
    let size = 0;
    let tooLarge = false;
    const counted = whole((chunk) => {
      size += chunk.byteLength;
      if (size > config.maxFileBytes) {
        tooLarge = true;
        return new Error("file over the size limit");
      }
      digest.update(chunk);
      return null;
    });
    const attachmentId = (yield* Random).identifier();
    const blobKey = `attachments/${attachmentId}.${format.ext}`;
    const blobs = yield* BlobStore;
    const put = yield* Effect.exit(blobs.put(blobKey, counted, sniffed.value.mime));
    if (Exit.isFailure(put)) {
      yield* blobs.remove(blobKey);
      if (tooLarge) return yield* new TooLarge({ message: UPLOAD_MESSAGES.tooLarge });
      return yield* Effect.failCause(put.cause);
    }
    return { attachmentId, fileName: fileName || `file.${format.ext}`, ext: format.ext, mime: sniffed.value.mime, kind: format.kind, size, sha256: digest.hex(), blobKey } satisfies StoredFile;
  });

/** Files and photos of the report's current round. */
const roundCounts = (reportId: string, round: number) =>
  Effect.map(Effect.flatMap(Attachments, (a) => a.listByReport(reportId)), (all) => {
    const mine = all.filter((a) => a.round === round && a.kind !== "frame");
    return { files: mine.length, photos: mine.filter((a) => a.kind === "image").length };
  });

/**
 * Records one stored file on the report, in its own transaction: the report is locked, its status
 * and the file limit checked again, and a file whose bytes this round already has is not counted
 * twice (its new blob is removed). A report waiting for a recapture starts a new round.
 */
const attachFile = (reportId: string, userId: string, file: StoredFile) =>
  Effect.gen(function* () {
    const config = yield* settings;
    const reports = yield* Reports;
    const attachments = yield* Attachments;
    const outcome = yield* transaction(
      Effect.gen(function* () {
        const locked = yield* reports.lock(reportId);
        if (Option.isNone(locked)) return yield* reportNotFound();
        const report = locked.value;
        if (!acceptsFiles(report.status)) return yield* new Conflict({ message: UPLOAD_MESSAGES.closed });
        const round = report.status === "recapture_requested" ? report.round + 1 : report.round;
        const existing = yield* attachments.findBySha256(reportId, round, file.sha256);
        if (Option.isSome(existing)) return { attachment: existing.value, duplicate: true };
        const counts = yield* roundCounts(reportId, round);
        if (counts.files >= config.maxFiles) return yield* ValidationFailed.field("attachments", UPLOAD_MESSAGES.tooMany);
        const at = yield* now;
        const attachment: Attachment = {
          id: file.attachmentId,
          reportId,
          round,
          kind: file.kind,
          fileName: file.fileName.slice(0, 255),
          extension: file.ext,
          mime: file.mime,
          size: file.size,
          sha256: file.sha256,
          blobKey: file.blobKey,
          sourceId: null,
          frameTime: null,
          createdAt: at,
        };
        yield* attachments.insert(attachment);
        const status = yield* advance(report, { type: "FILE_STORED" });
        yield* reports.update(reportId, {
          status,
          round,
          ...(round !== report.round ? { recaptureReasons: report.recaptureReasons } : {}),
          updatedAt: at,
        });
        yield* audit({ action: "report.upload", actorId: userId, subjectId: reportId, details: { attachment: attachment.id, sha256: file.sha256, size: file.size } });
        return { attachment, duplicate: false };
      }),
    );
    if (outcome.duplicate) yield* (yield* BlobStore).remove(file.blobKey);
    return outcome.attachment;
  });

/** The report the caller uploads to: their own, still open for files; checked before any byte is stored. */
const uploadTarget = (reportId: string) =>
  Effect.gen(function* () {
    const { caller, report, baby, relation } = yield* visibleReport(reportId);
    if (!capturesInto(caller, report, baby, relation)) return yield* reportNotFound();
    if (!acceptsFiles(report.status)) return yield* new Conflict({ message: UPLOAD_MESSAGES.closed });
    return { caller, report };
  });

/**
 * `POST /report/upload`: `attachments[]` files with `report_identifier`, streamed part by part.
 * Each file is committed on its own, so a call that fails half-way keeps the files before the
 * failure and a retried call stores nothing twice. The identifier may come before or after the
 * files (or in the query); files that arrive first are stored, then attached once it is known.
 */
export const uploadAttachments = (parts: AsyncIterable<UploadPart>, identifierFromQuery: string | null = null) =>
  Effect.gen(function* () {
    const config = yield* settings;
    const state: { target: { readonly report: Report; readonly userId: string } | null } = { target: null };
    const pending: StoredFile[] = [];
    const stored: Attachment[] = [];
    const seenThisCall = new Set<string>();
    let files = 0;

    const resolve = (id: string) =>
      Effect.gen(function* () {
        const { caller, report } = yield* uploadTarget(id);
        state.target = { report, userId: caller.user.id };
      });
    const commit = (file: StoredFile) =>
      Effect.gen(function* () {
        const t = state.target!;
        const attachment = yield* attachFile(t.report.id, t.userId, file);
        if (!seenThisCall.has(attachment.id)) {
          seenThisCall.add(attachment.id);
          stored.push(attachment);
        }
      });
    const discardPending = Effect.forEach(pending, (f) => Effect.flatMap(BlobStore, (b) => b.remove(f.blobKey)), { discard: true });

    if (identifierFromQuery) yield* resolve(identifierFromQuery);
    const iterator = parts[Symbol.asyncIterator]();
    const run = Effect.gen(function* () {
      for (;;) {
        const next = yield* Effect.promise(() => iterator.next());
        if (next.done) break;
        const part = next.value;
        if (part.type === "field") {
          if (part.name === "report_identifier" && state.target === null && part.value.trim() !== "") {
            yield* resolve(part.value.trim());
            while (pending.length > 0) yield* commit(pending.shift()!);
          }
          continue;
        }
        files += 1;
        if (files > config.maxFiles) {
          yield* Effect.promise(() => part.stream.cancel().catch(() => undefined));
          return yield* ValidationFailed.field("attachments", UPLOAD_MESSAGES.tooMany);
        }
        if (state.target !== null) {
          // Fail before streaming when the report is already full.
          const r = state.target.report;
          const counts = yield* roundCounts(r.id, r.status === "recapture_requested" ? r.round + 1 : r.round);
          if (counts.files >= config.maxFiles) {
            yield* Effect.promise(() => part.stream.cancel().catch(() => undefined));
            return yield* ValidationFailed.field("attachments", UPLOAD_MESSAGES.tooMany);
          }
        }
        const file = yield* storeFile(part.fileName, part.stream);
        if (state.target === null) pending.push(file);
        else yield* commit(file);
      }
      if (state.target === null) return yield* ValidationFailed.field("report_identifier", UPLOAD_MESSAGES.reportRequired);
      if (files === 0) return yield* ValidationFailed.field("attachments", UPLOAD_MESSAGES.noFiles);
    });
    yield* Effect.onExit(run, (exit) =>
      Effect.gen(function* () {
        if (Exit.isFailure(exit)) yield* discardPending;
        yield* Effect.promise(async () => {
          await iterator.return?.();
        }).pipe(Effect.ignore);
      }),
    );
    const report = state.target!.report;
    return { report_identifier: report.id, attachments: stored.map(presentAttachment) };
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
          key: `${ANALYZE_REPORT_JOB}:${report.id}:${report.round}`,
        });
        yield* audit({ action: "report.finalize", actorId: caller.user.id, subjectId: report.id, details: { round: report.round, files: counts.files } });
        return { report_identifier: report.id, status, repeated: false };
      }),
    );
  });
