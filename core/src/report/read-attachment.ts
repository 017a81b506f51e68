import { Effect, Option } from "effect";
import { NotFound } from "../shared/errors.ts";
import { audit, BlobStore } from "../shared/ports.ts";
import { visibleReport } from "./access.ts";
import { derivedImage } from "./derived.ts";
import { Attachments } from "./model.ts";
import { auditReportReads, READ_AUDIT } from "./read-audit.ts";

/** Serving a report's photos, videos and thumbnails to the people who may see the report. */

const attachmentOf = (reportId: string, attachmentId: string) =>
  Effect.gen(function* () {
    const { caller, report } = yield* visibleReport(reportId);
    const id = attachmentId.replace(/\.[A-Za-z0-9]+$/, "");
    const attachment = yield* (yield* Attachments).findById(id);
    if (Option.isNone(attachment) || attachment.value.reportId !== report.id) return yield* NotFound.of("Attachment");
    return { caller, report, attachment: attachment.value };
  });

/**
 * `GET /report/attachment/{report}/{attachment}.{ext}`: images are served as their kept display-size
 * clean JPEG (EXIF orientation applied, location and every other metadata removed; ADR 0031);
 * videos stream as stored.
 */
export const readAttachment = (reportId: string, attachmentId: string) =>
  Effect.gen(function* () {
    const { caller, report, attachment } = yield* attachmentOf(reportId, attachmentId);
    yield* audit({ action: "report.attachment", actorId: caller.user.id, subjectId: report.id, details: { attachment: attachment.id } });
    if (attachment.kind === "video") {
      const blob = yield* (yield* BlobStore).get(attachment.blobKey);
      if (Option.isNone(blob)) return yield* NotFound.of("Attachment");
      return { blob: blob.value, fileName: `${attachment.id}.${attachment.extension}` };
    }
    const display = yield* derivedImage(attachment, "display");
    if (Option.isNone(display)) return yield* NotFound.of("Attachment");
    return { blob: display.value, fileName: `${attachment.id}.jpg` };
  });

/** `GET /report/thumb/{report}/{attachment}.{ext}`: the kept thumbnail of an image (a video has none: 404). */
export const readThumbnail = (reportId: string, attachmentId: string) =>
  Effect.gen(function* () {
    const { caller, report, attachment } = yield* attachmentOf(reportId, attachmentId);
    yield* auditReportReads(READ_AUDIT.thumbnail, caller, [report], { attachment: attachment.id });
    if (attachment.kind === "video") return yield* NotFound.of("Thumbnail");
    const thumb = yield* derivedImage(attachment, "thumbnail");
    if (Option.isNone(thumb)) return yield* NotFound.of("Thumbnail");
    return thumb.value;
  });
