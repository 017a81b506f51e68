import {
  type AnalysisSummary,
  type Attachment,
  Attachments,
  type AttachmentsPort,
  type Measurement,
  Measurements,
  type MeasurementsPort,
  type ModelAnswer,
  type PhotoGeometry,
  ReadFlags,
  type ReadFlagsPort,
  type Report,
  type ReportPatch,
  Reports,
  type ReportsPort,
  type ReportVersion,
  ReportVersions,
  type ReportVersionsPort,
  ReviewActions,
  type ReviewActionsPort,
  type UploadCut,
} from "@crown/core/report/index";
import { Effect, Layer, Option } from "effect";
import type { Kysely, Selectable } from "kysely";
import { run } from "../executor.ts";
import { listingFromRow, makeReportLists } from "./report-lists.ts";
import type { AttachmentsTable, Database, MeasurementsTable, ReportVersionsTable, ReportsTable } from "../schema.ts";

/*
 * Repositories of the report pipeline (migration 2026-11-22T0600). Tables are in schema.ts. JSON columns are written as text and read back parsed by both drivers.
 */

/** Both drivers parse jsonb; a text value (older drivers) is parsed here. */
const json = <T>(value: unknown): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T));

// ---- Reports ---------------------------------------------------------------------------------------

export const reportFromRow = (row: Selectable<ReportsTable>): Report => ({
  ...listingFromRow(row),
  reviewNote: row.review_note,
  analysis: row.analysis === null ? null : json<AnalysisSummary>(row.analysis),
  uploadCut: row.upload_cut === null ? null : json<UploadCut>(row.upload_cut),
});

const reportPatchToRow = (patch: ReportPatch) => {
  const row: Record<string, unknown> = {};
  const map: Record<string, string> = {
    babyName: "baby_name",
    physicianId: "physician_id",
    status: "status",
    round: "round",
    submittedAt: "submitted_at",
    analyzedAt: "analyzed_at",
    publishedAt: "published_at",
    reviewerId: "reviewer_id",
    reviewNote: "review_note",
    version: "version",
    updatedAt: "updated_at",
  };
  for (const [key, column] of Object.entries(map)) {
    const value = patch[key as keyof ReportPatch];
    if (value !== undefined) row[column] = value;
  }
  if (patch.recaptureReasons !== undefined) row.recapture_reasons = JSON.stringify(patch.recaptureReasons);
  if (patch.analysis !== undefined) row.analysis = patch.analysis === null ? null : JSON.stringify(patch.analysis);
  if (patch.uploadCut !== undefined) row.upload_cut = patch.uploadCut === null ? null : JSON.stringify(patch.uploadCut);
  return row;
};

export const makeReports = (db: Kysely<Database>): ReportsPort => ({
  insert: (r) =>
    Effect.asVoid(
      run(db, (ex) =>
        ex
          .insertInto("reports")
          .values({
            id: r.id,
            baby_id: r.babyId,
            baby_name: r.babyName,
            uploader_id: r.uploaderId,
            physician_id: r.physicianId,
            analysis_type: r.analysisType,
            status: r.status,
            round: r.round,
            submitted_at: r.submittedAt,
            analyzed_at: r.analyzedAt,
            published_at: r.publishedAt,
            reviewer_id: r.reviewerId,
            review_note: r.reviewNote,
            recapture_reasons: JSON.stringify(r.recaptureReasons),
            analysis: r.analysis === null ? null : JSON.stringify(r.analysis),
            upload_cut: r.uploadCut === null ? null : JSON.stringify(r.uploadCut),
            version: r.version,
            created_at: r.createdAt,
            updated_at: r.updatedAt,
          })
          .execute(),
      ),
    ),
  findById: (id) =>
    run(db, (ex) => ex.selectFrom("reports").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), reportFromRow)),
    ),
  lock: (id) =>
    run(db, (ex) => ex.selectFrom("reports").selectAll().where("id", "=", id).forUpdate().executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), reportFromRow)),
    ),
  update: (id, patch) => {
    const row = reportPatchToRow(patch);
    if (Object.keys(row).length === 0) return Effect.void;
    return Effect.asVoid(run(db, (ex) => ex.updateTable("reports").set(row).where("id", "=", id).execute()));
  },
  publishedForBaby: (babyId) =>
    run(db, (ex) =>
      ex.selectFrom("reports").selectAll().where("baby_id", "=", babyId).where("version", ">", 0).orderBy("submitted_at", "asc").orderBy("id").execute(),
    ).pipe(Effect.map((rows) => rows.map(reportFromRow))),
  ...makeReportLists(db),
  lastSubmitted: (babyIds) =>
    babyIds.length === 0
      ? Effect.succeed(new Map())
      : run(db, (ex) =>
          ex
            .selectFrom("reports")
            .select(["baby_id", (eb) => eb.fn.max("submitted_at").as("last")])
            .where("baby_id", "in", [...babyIds])
            .where("submitted_at", "is not", null)
            .groupBy("baby_id")
            .execute(),
        ).pipe(Effect.map((rows) => new Map(rows.filter((r) => r.last !== null).map((r) => [r.baby_id, new Date(r.last as unknown as string)])))),
});

// ---- Attachments -----------------------------------------------------------------------------------

export const attachmentFromRow = (row: Selectable<AttachmentsTable>): Attachment => ({
  id: row.id,
  reportId: row.report_id,
  round: row.round,
  kind: row.kind,
  fileName: row.file_name,
  extension: row.extension,
  mime: row.mime,
  size: Number(row.size),
  sha256: row.sha256,
  blobKey: row.blob_key,
  sourceId: row.source_id,
  frameTime: row.frame_time,
  createdAt: row.created_at,
});

export const makeAttachments = (db: Kysely<Database>): AttachmentsPort => ({
  insert: (a) =>
    Effect.asVoid(
      run(db, (ex) =>
        ex
          .insertInto("attachments")
          .values({
            id: a.id,
            report_id: a.reportId,
            round: a.round,
            kind: a.kind,
            file_name: a.fileName,
            extension: a.extension,
            mime: a.mime,
            size: a.size,
            sha256: a.sha256,
            blob_key: a.blobKey,
            source_id: a.sourceId,
            frame_time: a.frameTime,
            created_at: a.createdAt,
          })
          .execute(),
      ),
    ),
  findById: (id) =>
    run(db, (ex) => ex.selectFrom("attachments").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), attachmentFromRow)),
    ),
  listByReport: (reportId) =>
    run(db, (ex) => ex.selectFrom("attachments").selectAll().where("report_id", "=", reportId).orderBy("created_at").orderBy("id").execute()).pipe(
      Effect.map((rows) => rows.map(attachmentFromRow)),
    ),
  listByReports: (reportIds) =>
    reportIds.length === 0
      ? Effect.succeed([])
      : run(db, (ex) => ex.selectFrom("attachments").selectAll().where("report_id", "in", [...reportIds]).orderBy("created_at").orderBy("id").execute()).pipe(
          Effect.map((rows) => rows.map(attachmentFromRow)),
        ),
  findBySha256: (reportId, round, sha256) =>
    run(db, (ex) =>
      ex
        .selectFrom("attachments")
        .selectAll()
        .where("report_id", "=", reportId)
        .where("round", "=", round)
        .where("sha256", "=", sha256)
        .where("kind", "<>", "frame")
        .executeTakeFirst(),
    ).pipe(Effect.map((row) => Option.map(Option.fromNullable(row), attachmentFromRow))),
});

// ---- Measurements ----------------------------------------------------------------------------------

export const measurementFromRow = (row: Selectable<MeasurementsTable>): Measurement => ({
  attachmentId: row.attachment_id,
  reportId: row.report_id,
  round: row.round,
  accepted: row.accepted,
  verdict: row.verdict ?? (row.accepted ? "accept" : "retake"),
  reasons: json<string[]>(row.reasons),
  qualityMargin: row.quality_margin,
  ci: row.ci,
  cvai: row.cvai,
  cvaMm: row.cva_mm,
  geometry: row.geometry === null ? null : json<PhotoGeometry>(row.geometry),
  error: row.error,
  decision: row.decision,
  noseCorrected: row.nose_corrected,
  outlineCorrected: row.outline_corrected,
  modelAnswer: row.model_answer === null ? null : json<ModelAnswer>(row.model_answer),
  correctedBy: row.corrected_by,
  correctedAt: row.corrected_at,
  decisionReason: row.decision_reason,
  model: row.model_name !== null && row.model_version !== null ? { name: row.model_name, version: row.model_version } : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const makeMeasurements = (db: Kysely<Database>): MeasurementsPort => ({
  upsert: (m) => {
    const values = {
      attachment_id: m.attachmentId,
      report_id: m.reportId,
      round: m.round,
      accepted: m.accepted,
      verdict: m.verdict,
      reasons: JSON.stringify(m.reasons),
      quality_margin: m.qualityMargin,
      ci: m.ci,
      cvai: m.cvai,
      cva_mm: m.cvaMm,
      geometry: m.geometry === null ? null : JSON.stringify(m.geometry),
      error: m.error,
      decision: m.decision,
      nose_corrected: m.noseCorrected,
      outline_corrected: m.outlineCorrected,
      model_answer: m.modelAnswer === null ? null : JSON.stringify(m.modelAnswer),
      corrected_by: m.correctedBy,
      corrected_at: m.correctedAt,
      decision_reason: m.decisionReason,
      model_name: m.model?.name ?? null,
      model_version: m.model?.version ?? null,
      created_at: m.createdAt,
      updated_at: m.updatedAt,
    };
    const { attachment_id: _id, created_at: _created, ...changes } = values;
    return Effect.asVoid(
      run(db, (ex) => ex.insertInto("measurements").values(values).onConflict((oc) => oc.column("attachment_id").doUpdateSet(changes)).execute()),
    );
  },
  find: (attachmentId) =>
    run(db, (ex) => ex.selectFrom("measurements").selectAll().where("attachment_id", "=", attachmentId).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), measurementFromRow)),
    ),
  listByReport: (reportId) =>
    run(db, (ex) => ex.selectFrom("measurements").selectAll().where("report_id", "=", reportId).orderBy("created_at").orderBy("attachment_id").execute()).pipe(
      Effect.map((rows) => rows.map(measurementFromRow)),
    ),
});

// ---- Review actions, versions, read flags ----------------------------------------------------------

export const makeReviewActions = (db: Kysely<Database>): ReviewActionsPort => ({
  insert: (a) =>
    Effect.asVoid(
      run(db, (ex) =>
        ex
          .insertInto("review_actions")
          .values({ id: a.id, report_id: a.reportId, reviewer_id: a.reviewerId, action: a.action, details: JSON.stringify(a.details), at: a.at })
          .execute(),
      ),
    ),
  listByReport: (reportId) =>
    run(db, (ex) => ex.selectFrom("review_actions").selectAll().where("report_id", "=", reportId).orderBy("at").orderBy("id").execute()).pipe(
      Effect.map((rows) =>
        rows.map((row) => ({ id: row.id, reportId: row.report_id, reviewerId: row.reviewer_id, action: row.action, details: json<Record<string, unknown>>(row.details), at: row.at })),
      ),
    ),
});

const versionFromRow = (row: Selectable<ReportVersionsTable>): ReportVersion => ({
  id: row.id,
  reportId: row.report_id,
  version: row.version,
  blobKey: row.blob_key,
  sha256: row.sha256,
  size: Number(row.size),
  publishedBy: row.published_by,
  publishedAt: row.published_at,
  summary: json<AnalysisSummary>(row.summary),
});

export const makeReportVersions = (db: Kysely<Database>): ReportVersionsPort => ({
  insert: (v) =>
    Effect.asVoid(
      run(db, (ex) =>
        ex
          .insertInto("report_versions")
          .values({
            id: v.id,
            report_id: v.reportId,
            version: v.version,
            blob_key: v.blobKey,
            sha256: v.sha256,
            size: v.size,
            published_by: v.publishedBy,
            published_at: v.publishedAt,
            summary: JSON.stringify(v.summary),
          })
          .execute(),
      ),
    ),
  latest: (reportId) =>
    run(db, (ex) => ex.selectFrom("report_versions").selectAll().where("report_id", "=", reportId).orderBy("version", "desc").limit(1).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), versionFromRow)),
    ),
  listByReports: (reportIds) =>
    reportIds.length === 0
      ? Effect.succeed([])
      : run(db, (ex) => ex.selectFrom("report_versions").selectAll().where("report_id", "in", [...reportIds]).orderBy("published_at").execute()).pipe(
          Effect.map((rows) => rows.map(versionFromRow)),
        ),
});

export const makeReadFlags = (db: Kysely<Database>): ReadFlagsPort => ({
  markRead: (reportId, physicianId, readBy, at) =>
    Effect.asVoid(
      run(db, (ex) =>
        ex
          .insertInto("report_reads")
          .values({ report_id: reportId, physician_id: physicianId, read_by: readBy, read_at: at })
          .onConflict((oc) => oc.columns(["report_id", "physician_id"]).doNothing())
          .execute(),
      ),
    ),
  isRead: (reportId, physicianId) =>
    run(db, (ex) =>
      ex.selectFrom("report_reads").select("report_id").where("report_id", "=", reportId).where("physician_id", "=", physicianId).executeTakeFirst(),
    ).pipe(Effect.map((row) => row !== undefined)),
  clear: (reportId) => Effect.asVoid(run(db, (ex) => ex.deleteFrom("report_reads").where("report_id", "=", reportId).execute())),
});

export const makeReportsLayer = (db: Kysely<Database>) =>
  Layer.mergeAll(
    Layer.succeed(Reports, makeReports(db)),
    Layer.succeed(Attachments, makeAttachments(db)),
    Layer.succeed(Measurements, makeMeasurements(db)),
    Layer.succeed(ReviewActions, makeReviewActions(db)),
    Layer.succeed(ReportVersions, makeReportVersions(db)),
    Layer.succeed(ReadFlags, makeReadFlags(db)),
  );
