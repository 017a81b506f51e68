import { Effect, Option, Schema } from "effect";
import { Users } from "../accounts/model.ts";
import { Babies } from "../onboarding/model.ts";
import { actingPhysician, displayName, requireActive } from "../practice/access.ts";
import { NotFound } from "../shared/errors.ts";
import { audit, BlobStore, now, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { readableBaby, reportNotFound, visibleReport } from "./access.ts";
import { presentAttachment, UPLOAD_MESSAGES } from "./capture.ts";
import { derivedImage } from "./derived.ts";
import { auditReportReads, READ_AUDIT } from "./read-audit.ts";
import { type Attachment, Attachments, ReadFlags, type Report, Reports, ReportVersions, type ResultFilter } from "./model.ts";
import { presentSummary } from "./review.ts";

export const RESULT_MESSAGES = {
  results: "Results fetched successfully",
  uploads: "Uploads fetched successfully",
  list: "Reports fetched successfully",
  downloaded: "Report downloaded successfully",
  attachment: "Attachment fetched successfully",
} as const;

const PerPage = Schema.optionalWith(
  Schema.Union(Schema.Number, Schema.NumberFromString).pipe(Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= 100)).annotations({
    message: () => ({ message: "Per page must be a whole number between 1 and 100", override: true }),
  }),
  { nullable: true },
);
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
const searchText = (search: string | null | undefined) => {
  const s = search?.trim() ?? "";
  return s.length > 2 ? s : null;
};

export const pageResult = <T>(data: ReadonlyArray<T>, total: number, page: number, perPage: number) => ({
  data,
  current_page: page,
  last_page: Math.max(1, Math.ceil(total / perPage)),
  per_page: perPage,
  total,
});

const uploadedDate = (r: Report) => (r.submittedAt ?? r.createdAt).toISOString();

const parentNames = (reports: ReadonlyArray<Report>) =>
  Effect.gen(function* () {
    const babies = yield* Babies;
    const users = yield* Users;
    const names = new Map<string, string | null>();
    for (const r of reports) {
      const baby = yield* babies.findById(r.babyId);
      const parentId = Option.isSome(baby) ? baby.value.parentId : null;
      const parent = parentId ? yield* users.findById(parentId) : Option.none();
      names.set(r.id, Option.isSome(parent) ? displayName(parent.value) : null);
    }
    return names;
  });

const attachmentsOf = (reports: ReadonlyArray<Report>) =>
  Effect.map(Effect.flatMap(Attachments, (a) => a.listByReports(reports.map((r) => r.id))), (all) => {
    const by = new Map<string, Attachment[]>();
    for (const a of all) if (a.kind !== "frame") (by.get(a.reportId) ?? by.set(a.reportId, []).get(a.reportId)!).push(a);
    return by;
  });

/** `POST /report/results?page=`: a physician's published results (staff name the physician), with the read flag. */
export const physicianResults = (page: number, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ResultsRequest, input);
    const { caller, physician } = yield* actingPhysician(request);
    const perPage = request.per_page ?? 10;
    const filter: ResultFilter = request.type ?? "all";
    const result = yield* (yield* Reports).resultsForPhysician(physician.id, { search: searchText(request.search), filter }, { page, perPage });
    const parents = yield* parentNames(result.data.map((r) => r.report));
    yield* auditReportReads(READ_AUDIT.listed, caller, result.data.map((r) => r.report), { list: "results" });
    return pageResult(
      result.data.map(({ report, read }) => ({
        identifier: report.id,
        baby_name: report.babyName,
        uploaded_date: uploadedDate(report),
        published_date: report.publishedAt?.toISOString() ?? null,
        parent_name: parents.get(report.id) ?? null,
        read,
        version: report.version,
      })),
      result.total,
      page,
      perPage,
    );
  });

/** `POST /report/parent-results`: the published results of the caller's babies. */
export const parentResults = (page: number, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ParentResultsRequest, input);
    const caller = yield* requireActive("parent");
    let babies = yield* (yield* Babies).listByParent(caller.user.id);
    if (request.baby_identifier) babies = babies.filter((b) => b.id === request.baby_identifier);
    const perPage = request.per_page ?? 10;
    const result = yield* (yield* Reports).resultsForBabies(babies.map((b) => b.id), { search: searchText(request.search) }, { page, perPage });
    yield* auditReportReads(READ_AUDIT.listed, caller, result.data, { list: "parent-results" });
    return pageResult(
      result.data.map((report) => ({
        identifier: report.id,
        baby_name: report.babyName,
        uploaded_date: uploadedDate(report),
        published_date: report.publishedAt?.toISOString() ?? null,
        read: true,
        version: report.version,
        summary: presentSummary(report.analysis),
      })),
      result.total,
      page,
      perPage,
    );
  });

const uploadItem = (report: Report, attachments: ReadonlyArray<Attachment>, parentName: string | null) => ({
  identifier: report.id,
  report_identifier: report.id,
  baby_name: report.babyName,
  upload_date: uploadedDate(report),
  uploaded_date: uploadedDate(report),
  status: report.status,
  parent_name: parentName,
  attachments: attachments.map(presentAttachment),
  attachment_count: attachments.length,
  recapture_reasons: report.status === "recapture_requested" ? report.recaptureReasons : [],
});

/**
 * `POST /report/list`, the dashboards: a parent names a baby and sees its latest uploads (3 on
 * the dashboard); a physician (or staff naming one) sees recent results, 5 a page, `type` new for unread.
 */
export const dashboardList = (page: number, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ListRequest, input);
    const caller = yield* requireActive("parent", "physician", "physician_staff");
    if (caller.user.type === "parent") {
      const perPage = request.per_page ?? 3;
      const babies = yield* (yield* Babies).listByParent(caller.user.id);
      const baby = request.baby_identifier ? babies.find((b) => b.id === request.baby_identifier) : babies[0];
      if (request.baby_identifier && !baby) return yield* NotFound.of("Baby");
      if (!baby) return pageResult([], 0, page, perPage);
      const result = yield* (yield* Reports).uploadsForBaby(baby.id, { page, perPage });
      const attachments = yield* attachmentsOf(result.data);
      yield* auditReportReads(READ_AUDIT.listed, caller, result.data, { list: "dashboard" });
      return pageResult(result.data.map((r) => uploadItem(r, attachments.get(r.id) ?? [], null)), result.total, page, perPage);
    }
    const { physician } = yield* actingPhysician(request);
    const perPage = request.per_page ?? 5;
    const result = yield* (yield* Reports).resultsForPhysician(physician.id, { search: searchText(request.search), filter: request.type ?? "all" }, { page, perPage });
    const reports = result.data.map((r) => r.report);
    const attachments = yield* attachmentsOf(reports);
    const parents = yield* parentNames(reports);
    yield* auditReportReads(READ_AUDIT.listed, caller, reports, { list: "dashboard" });
    return pageResult(
      result.data.map(({ report, read }) => ({ ...uploadItem(report, attachments.get(report.id) ?? [], parents.get(report.id) ?? null), read })),
      result.total,
      page,
      perPage,
    );
  });

/** `POST /report/my-uploads?page=`: every upload of a baby with its attachments (parent, or the baby's practice). */
export const myUploads = (page: number, input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(UploadsRequest, input);
    const { caller, baby } = yield* readableBaby(request.baby_identifier);
    const perPage = request.per_page ?? 10;
    const result = yield* (yield* Reports).uploadsForBaby(baby.id, { page, perPage });
    const attachments = yield* attachmentsOf(result.data);
    yield* auditReportReads(READ_AUDIT.listed, caller, result.data, { list: "my-uploads" });
    return pageResult(result.data.map((r) => uploadItem(r, attachments.get(r.id) ?? [], null)), result.total, page, perPage);
  });

// ---- Files ------------------------------------------------------------------------------------------

const latestPdf = (report: Report) =>
  Effect.gen(function* () {
    if (report.version === 0) return yield* reportNotFound();
    const version = yield* (yield* ReportVersions).latest(report.id);
    if (Option.isNone(version)) return yield* reportNotFound();
    const blob = yield* (yield* BlobStore).get(version.value.blobKey);
    if (Option.isNone(blob)) return yield* reportNotFound();
    return { blob: blob.value, version: version.value };
  });

/**
 * `GET /report/{id}/download`: the latest published PDF for the report's physician (or staff
 * acting for them), which marks it read for that physician; reviewers and admins may read it too.
 */
export const providerDownload = (reportId: string) =>
  Effect.gen(function* () {
    const { caller, report, relation } = yield* visibleReport(reportId, ["physician", "staff", "reviewer", "admin"]);
    const file = yield* latestPdf(report);
    if ((relation === "physician" || relation === "staff") && report.physicianId !== null) {
      const physicianId = report.physicianId;
      yield* transaction(
        Effect.gen(function* () {
          yield* (yield* ReadFlags).markRead(report.id, physicianId, caller.user.id, yield* now);
          yield* audit({ action: "report.download", actorId: caller.user.id, subjectId: report.id, details: { version: file.version.version, for: physicianId } });
        }),
      );
    } else {
      yield* audit({ action: "report.download", actorId: caller.user.id, subjectId: report.id, details: { version: file.version.version } });
    }
    return file.blob;
  });

/** `GET /report/{id}/parent-download`: the latest published PDF for the baby's parent. */
export const parentDownload = (reportId: string) =>
  Effect.gen(function* () {
    const { caller, report } = yield* visibleReport(reportId, ["parent"]);
    const file = yield* latestPdf(report);
    yield* audit({ action: "report.download", actorId: caller.user.id, subjectId: report.id, details: { version: file.version.version } });
    return file.blob;
  });

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

/** Reports' detail for the people who may see them (status, figures once published). */
export const reportStatus = (reportId: string) =>
  Effect.gen(function* () {
    const { caller, report } = yield* visibleReport(reportId);
    yield* auditReportReads(READ_AUDIT.viewed, caller, [report]);
    const attachments = (yield* (yield* Attachments).listByReport(report.id)).filter((a) => a.kind !== "frame");
    return {
      report_identifier: report.id,
      baby_name: report.babyName,
      status: report.status,
      round: report.round,
      uploaded_date: uploadedDate(report),
      published_date: report.publishedAt?.toISOString() ?? null,
      version: report.version,
      recapture_reasons: report.recaptureReasons,
      summary: report.status === "published" ? presentSummary(report.analysis) : null,
      attachments: attachments.map(presentAttachment),
      // The last upload that ended early, until a complete one: what was kept of it (ADR 0028).
      upload_cut: report.uploadCut ? { message: UPLOAD_MESSAGES.cutShort, at: report.uploadCut.at, kept_files: report.uploadCut.kept } : null,
    };
  });

/** For reminders: when each baby was last uploaded for (the onboarding `UploadHistory` port). */
export const lastUploads = (babyIds: ReadonlyArray<string>) => Effect.flatMap(Reports, (r) => r.lastSubmitted(babyIds));

