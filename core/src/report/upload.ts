import { Data, Effect, Exit, Option } from "effect";
import { Conflict, TooLarge, ValidationFailed } from "../shared/errors.ts";
import { INPUT_MESSAGES, isBadFileName, isUnstorableText } from "../shared/input.ts";
import { discardBlobs, keepBlobs, putPending } from "../shared/pending-blobs.ts";
import { audit, ContentSniffer, now, Random, transaction } from "../shared/ports.ts";
import { capturesInto, reportNotFound, visibleReport } from "./access.ts";
import { advance } from "./advance.ts";
import { acceptsFiles, roundForFiles } from "./lifecycle.ts";
import { type Attachment, type AttachmentKind, Attachments, ContentHasher, type Report, Reports, type UploadCut } from "./model.ts";
import { ACCEPTED_FORMATS, HEADER_BYTES, MAX_IMAGE_PIXELS, reportSettings as settings } from "./policy.ts";
import { presentAttachment } from "./present.ts";
import { roundCounts } from "./queries.ts";
import { UPLOAD_MESSAGES } from "./requests.ts";

/**
 * `POST /report/upload` (ADR 0028): every file is streamed to the blob store as it arrives, and
 * all of them are recorded on the report in ONE transaction once the body has ended. A refused
 * request (a limit, a format, the report's status) keeps nothing; a body that ends early (the
 * connection cut, a truncated form) keeps only the whole files that arrived, and the report
 * says so until its next complete upload. Every stored file is pending (ADR 0051) until that
 * transaction names it: if the process dies first, a sweep removes it within minutes.
 */

/** One part of a multipart upload, in the order it arrives. A file's stream must be read (or cancelled) before the next part comes. */
export type UploadPart =
  | { readonly type: "field"; readonly name: string; readonly value: string }
  | { readonly type: "file"; readonly name: string; readonly fileName: string; readonly stream: ReadableStream<Uint8Array> };

/** The body stopped before its end: not the client's choice of content, so not a refusal. */
class BodyEndedEarly extends Data.TaggedError("BodyEndedEarly")<{}> {}

/**
 * What a failed read of the body means: the parser's refusal of what the client sent (a malformed
 * part, as a ValidationFailed) keeps nothing; anything else is a body that ended early.
 */
/** The form names a report's files are sent under. */
const ATTACHMENT_FIELDS: ReadonlySet<string> = new Set(["attachments[]", "attachments"]);

const bodyFailure = (error: unknown): ValidationFailed | BodyEndedEarly => (error instanceof ValidationFailed ? error : new BodyEndedEarly());

/** Reads the first `n` bytes of a stream, and gives back a stream of the whole content; `sourceError` tells a cut body or a refused part from a refusal of the file. */
const peek = async (stream: ReadableStream<Uint8Array>, n: number) => {
  const reader = stream.getReader();
  let sourceError: { readonly error: unknown } | null = null;
  const read = async () => {
    try {
      return await reader.read();
    } catch (error) {
      sourceError = { error };
      throw error;
    }
  };
  const chunks: Uint8Array[] = [];
  let length = 0;
  let done = false;
  while (length < n) {
    const next = await read();
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
          const next = await read();
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
  return { head: head.subarray(0, Math.min(head.byteLength, n)), whole, sourceError: () => sourceError };
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
 * over the limit, or cut off by the body's end, has its partial blob removed.
 */
const storeFile = (fileName: string, stream: ReadableStream<Uint8Array>) =>
  Effect.gen(function* () {
    const config = yield* settings;
    const { head, whole, sourceError } = yield* Effect.tryPromise({ try: () => peek(stream, HEADER_BYTES), catch: bodyFailure });
    const sniffed = head.byteLength === 0 ? Option.none() : yield* (yield* ContentSniffer).sniff(head);
    const format = Option.isSome(sniffed) ? ACCEPTED_FORMATS[sniffed.value.mime] : undefined;
    // A photo whose size its header does not give, or that has too many pixels, is never decoded.
    const tooManyPixels = (s: { width?: number; height?: number }) => !s.width || !s.height || s.width * s.height > MAX_IMAGE_PIXELS;
    if (!format || Option.isNone(sniffed) || (format.kind === "image" && tooManyPixels(sniffed.value))) {
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
    const put = yield* Effect.exit(putPending(blobKey, counted, sniffed.value.mime));
    if (Exit.isFailure(put)) {
      yield* discardBlobs([blobKey]);
      if (tooLarge) return yield* new TooLarge({ message: UPLOAD_MESSAGES.tooLarge });
      const source = sourceError();
      if (source) return yield* bodyFailure(source.error);
      return yield* Effect.failCause(put.cause);
    }
    // The name passed `isBadFileName` before a byte was stored.
    const name = fileName || `file.${format.ext}`;
    return { attachmentId, fileName: name, ext: format.ext, mime: sniffed.value.mime, kind: format.kind, size, sha256: digest.hex(), blobKey } satisfies StoredFile;
  });

/** The report the caller may capture into (ADR 23), still open for files; checked before any byte is stored. */
const uploadTarget = (reportId: string) =>
  Effect.gen(function* () {
    const { caller, report, baby, relation } = yield* visibleReport(reportId);
    if (!capturesInto(caller, report, baby, relation)) return yield* reportNotFound();
    if (!acceptsFiles(report.status)) return yield* new Conflict({ message: UPLOAD_MESSAGES.closed });
    return { report, userId: caller.user.id };
  });

/** The round the files go to: the lifecycle's answer (a report waiting for a recapture starts the next one). */
const roundOf = (report: Report) => roundForFiles(report.status, report.round);

/**
 * Records the stored files on the report in one transaction: the report locked, its status and
 * the file limit checked, a file whose bytes this round already has counted once (its new blob is
 * removed after the commit). Any refusal rolls every file back. A report waiting for a recapture
 * starts a new round.
 */
const recordFiles = (reportId: string, userId: string, files: ReadonlyArray<StoredFile>, cut: UploadCut | null) =>
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
        const round = roundOf(report);
        const bySha = new Map((yield* attachments.listByReport(reportId)).filter((a) => a.round === round && a.kind !== "frame").map((a) => [a.sha256, a]));
        let count = bySha.size;
        const at = yield* now;
        const recorded: Attachment[] = [];
        const duplicates: string[] = [];
        for (const file of files) {
          const existing = bySha.get(file.sha256);
          if (existing) {
            duplicates.push(file.blobKey);
            if (!recorded.includes(existing)) recorded.push(existing);
            continue;
          }
          if (count >= config.maxFiles) return yield* ValidationFailed.field("attachments", UPLOAD_MESSAGES.tooMany);
          const attachment: Attachment = { id: file.attachmentId, reportId, round, kind: file.kind, fileName: file.fileName, extension: file.ext, mime: file.mime, size: file.size, sha256: file.sha256, blobKey: file.blobKey, sourceId: null, frameTime: null, createdAt: at };
          yield* attachments.insert(attachment);
          yield* audit({ action: "report.upload", actorId: userId, subjectId: reportId, details: { attachment: attachment.id, sha256: file.sha256, size: file.size } });
          bySha.set(file.sha256, attachment);
          recorded.push(attachment);
          count += 1;
        }
        const status = count > 0 ? yield* advance(report, { type: "FILE_STORED" }) : report.status;
        yield* reports.update(reportId, { status, round, ...(round !== report.round ? { recaptureReasons: report.recaptureReasons } : {}), uploadCut: cut, updatedAt: at });
        if (cut) yield* audit({ action: "report.upload.cut", actorId: userId, subjectId: reportId, details: { kept: cut.kept.length } });
        // The files named now are kept; a duplicate's blob stays pending until removed below (or swept).
        yield* keepBlobs(files.filter((f) => !duplicates.includes(f.blobKey)).map((f) => f.blobKey));
        return { recorded, duplicates };
      }),
    );
    yield* discardBlobs(outcome.duplicates);
    return outcome.recorded;
  });

/**
 * `POST /report/upload`: `attachments[]` files with `report_identifier` (before or after the files,
 * or in the query). A retried call stores nothing twice.
 */
export const uploadAttachments = (parts: AsyncIterable<UploadPart>, identifierFromQuery: string | null = null) =>
  Effect.gen(function* () {
    const config = yield* settings;
    const state: { target: { readonly report: Report; readonly userId: string } | null; recorded: boolean } = { target: null, recorded: false };
    const stored: StoredFile[] = [];
    const iterator = parts[Symbol.asyncIterator]();
    const nextPart = Effect.tryPromise({ try: () => iterator.next(), catch: bodyFailure });
    const skip = (stream: ReadableStream<Uint8Array>) => Effect.promise(() => stream.cancel().catch(() => undefined));

    const read = Effect.gen(function* () {
      if (identifierFromQuery) state.target = yield* uploadTarget(identifierFromQuery);
      let files = 0;
      for (;;) {
        const next = yield* nextPart;
        if (next.done) break;
        const part = next.value;
        if (part.type === "field") {
          // A file part without a file name (a name ending in "\\" escapes its closing quote) arrives as
          // text: it is a file the request meant to send, so the request is refused, not shortened.
          if (ATTACHMENT_FIELDS.has(part.name)) return yield* ValidationFailed.field("attachments", INPUT_MESSAGES.badFileName);
          if (part.name !== "report_identifier" || state.target !== null) continue;
          const id = part.value.trim();
          if (isUnstorableText(id)) return yield* ValidationFailed.field("report_identifier", INPUT_MESSAGES.badText);
          if (id !== "") state.target = yield* uploadTarget(id);
          continue;
        }
        files += 1;
        // A name no file may have refuses the whole request before a byte of it is stored.
        if (isBadFileName(part.fileName)) {
          yield* skip(part.stream);
          return yield* ValidationFailed.field("attachments", INPUT_MESSAGES.badFileName);
        }
        // Refused before streaming: more files than a report takes, or a report already full.
        const full = files > config.maxFiles || (state.target !== null && (yield* roundCounts(state.target.report.id, roundOf(state.target.report))).files >= config.maxFiles);
        if (full) {
          yield* skip(part.stream);
          return yield* ValidationFailed.field("attachments", UPLOAD_MESSAGES.tooMany);
        }
        stored.push(yield* storeFile(part.fileName, part.stream));
      }
      if (state.target === null) return yield* ValidationFailed.field("report_identifier", UPLOAD_MESSAGES.reportRequired);
      if (files === 0) return yield* ValidationFailed.field("attachments", UPLOAD_MESSAGES.noFiles);
      return state.target;
    });

    /** The body ended early: the whole files are kept (when the report is known) and the report says so. */
    const endedEarly = Effect.gen(function* () {
      const target = state.target;
      if (target !== null && stored.length > 0) {
        const cut: UploadCut = { at: (yield* now).toISOString(), kept: stored.map((f) => f.fileName) };
        yield* recordFiles(target.report.id, target.userId, stored, cut);
        state.recorded = true;
      }
      return yield* ValidationFailed.field("attachments", UPLOAD_MESSAGES.cutShort);
    });

    const recorded = yield* read.pipe(
      Effect.flatMap((target) => recordFiles(target.report.id, target.userId, stored, null)),
      Effect.tap(() => Effect.sync(() => (state.recorded = true))),
      Effect.catchTag("BodyEndedEarly", () => endedEarly),
      Effect.onExit((exit) => (Exit.isFailure(exit) && !state.recorded ? discardBlobs(stored.map((f) => f.blobKey)) : Effect.void)),
      Effect.ensuring(Effect.promise(async () => void (await iterator.return?.())).pipe(Effect.ignore)),
    );
    return { report_identifier: state.target!.report.id, attachments: recorded.map(presentAttachment) };
  });
