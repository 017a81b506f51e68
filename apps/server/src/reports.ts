import { existsSync } from "node:fs";
import { Effect, Layer } from "effect";
import { type Kysely, sql } from "kysely";
import { UploadHistory } from "@crown/core";
import { type AnalyzeOptions, HeadContourModel, type MeasurementError, measurementErrorOf } from "@crown/core/measurement/index";
import { analyzeReport, ANALYZE_REPORT_JOB, giveUpAnalysis, defaultReportSettings, ReportConfig, Reports } from "@crown/core/report/index";
import { SEND_MAIL_JOB, sendQueuedMail } from "@crown/core/shared/mail-jobs";
import { ERASE_DUE_ACCOUNTS_JOB, giveUpExport, PREPARE_DATA_EXPORT_JOB, prepareExport, runDataRights } from "@crown/core/family-data/index";
import { contentHasherLayer } from "@crown/crypto/sha256";
import type { Database } from "@crown/db";
import { Learning } from "@crown/core";
import { analyzeOptionsFrom, loadHeadContourModel, makeModelRuntime, modelRuntimeLayer } from "@crown/inference";
import { ffmpegUnavailable, reportMediaLayer } from "@crown/inference/report-media";
import { jobQueueLayer, type RunningWorker, startWorker } from "@crown/jobs";
import { reportRendererLayer } from "@crown/pdf";
import type { PortsOf, Runner } from "./runner.ts";
import { DEFAULT_MODEL_PATH } from "./paths.ts";
import { observeJob } from "./metrics.ts";


/** The model the pipeline measures with (null: none installed) and the options its card implies. */
export interface PipelineModel {
  readonly model: (HeadContourModel & { close?: () => Promise<void> }) | null;
  readonly analyze: AnalyzeOptions;
  /** The model card's error per photo (decides when a session's photos disagree); the fallback when absent. */
  readonly measurementError?: MeasurementError;
  readonly problem: string | null;
}

export interface ReportPipelineStatus {
  /** Null when videos can be read; otherwise why not (said at start and written into reports). */
  readonly ffmpeg: string | null;
  /** Null when the model is loaded; otherwise why not. */
  readonly model: string | null;
}

/** Loads the model when there is one; the pipeline still runs without it and says so in every report. */
export const loadModel = async (
  path = process.env.CROWN_MODEL ?? DEFAULT_MODEL_PATH,
): Promise<PipelineModel> => {
  if (!existsSync(path)) return { model: null, analyze: {}, problem: `the head-contour model is not at ${path} (build it with \`pnpm model:build\` or set CROWN_MODEL)` };
  try {
    const model = await loadHeadContourModel(path, { threads: 1 });
    return { model, analyze: analyzeOptionsFrom(model.card), measurementError: measurementErrorOf(model.card as Parameters<typeof measurementErrorOf>[0]), problem: null };
  } catch (error) {
    return { model: null, analyze: {}, problem: `the head-contour model at ${path} could not be loaded: ${(error as Error).message}` };
  }
};

/**
 * The report pipeline's adapters: the job queue, SHA-256, sharp and ffmpeg, the PDF renderer,
 * the model (when present), and upload history for the onboarding reminders.
 */
export const reportPipelineLayer = (
  db: Kysely<Database>,
  model: HeadContourModel | null,
  analyze: AnalyzeOptions = {},
  measurementError?: MeasurementError,
  runtime: ReturnType<typeof makeModelRuntime> = makeModelRuntime(),
) => {
  const settings = { ...defaultReportSettings, analyze, ...(measurementError ? { measurementError } : {}) };
  const base = Layer.mergeAll(
    jobQueueLayer(db, [ANALYZE_REPORT_JOB, SEND_MAIL_JOB, PREPARE_DATA_EXPORT_JOB, ERASE_DUE_ACCOUNTS_JOB, Learning.SHADOW_MEASURE_JOB]),
    // Installed candidates and promoted models, opened per checksum; their roles are read from the database (ADR 0159).
    modelRuntimeLayer(runtime),
    contentHasherLayer,
    reportMediaLayer(),
    reportRendererLayer,
    Layer.succeed(ReportConfig, settings),
  );
  return model ? Layer.merge(base, Layer.succeed(HeadContourModel, model)) : base;
};

/** Upload history from the reports table (replaces `UploadHistory.none` once reports exist). */
export const uploadHistoryLayer = Layer.effect(
  UploadHistory,
  Effect.map(Reports, (reports) => ({ lastUploads: (babyIds: ReadonlyArray<string>) => reports.lastSubmitted(babyIds) })),
);

export const pipelineStatus = (modelProblem: string | null): ReportPipelineStatus => ({ ffmpeg: ffmpegUnavailable(), model: modelProblem });

/** The ports the job worker's handlers need. */
export type ReportWorkerPorts =
  | PortsOf<typeof sendQueuedMail>
  | PortsOf<typeof analyzeReport>
  | PortsOf<ReturnType<typeof Learning.withShippedModel<unknown, never, PortsOf<typeof analyzeReport>>>>
  | PortsOf<ReturnType<typeof Learning.queueShadowMeasurement>>
  | PortsOf<ReturnType<typeof Learning.measureShadow>>
  | PortsOf<typeof giveUpAnalysis>
  | PortsOf<ReturnType<typeof prepareExport>>
  | PortsOf<typeof runDataRights>;

/**
 * Starts the job worker, running effects on `run`: the report analysis, and the e-mails queued by
 * publishes, recapture requests and unseen chat messages (a failed send is retried with backoff).
 */
export const startReportWorker = (
  db: Kysely<Database>,
  run: Runner<ReportWorkerPorts>,
  log?: (line: Record<string, unknown>) => void,
  options: { pollMs?: number; concurrency?: number; backoffSeconds?: number } = {},
): RunningWorker =>
  startWorker({
    db,
    ...(log ? { log } : {}),
    pollMs: options.pollMs ?? 500,
    concurrency: options.concurrency ?? 1,
    ...(options.backoffSeconds !== undefined ? { backoffSeconds: options.backoffSeconds } : {}),
    handlers: {
      [SEND_MAIL_JOB]: async (payload) => {
        const started = performance.now();
        try {
          await run(sendQueuedMail(payload));
          observeJob(SEND_MAIL_JOB, "done", (performance.now() - started) / 1000);
        } catch (error) {
          observeJob(SEND_MAIL_JOB, "failed", (performance.now() - started) / 1000);
          throw error;
        }
      },
      // A family's archive (issue 44); on the last attempt the export says it could not be made.
      [PREPARE_DATA_EXPORT_JOB]: async (payload, job) => {
        try {
          await run(prepareExport(String(payload.exportId)));
        } catch (error) {
          if (job.attempts >= job.max_attempts) await run(giveUpExport(String(payload.exportId)));
          throw error;
        }
      },
      // Erasures past their grace period and lapsed archives (queued on a schedule, ./data-rights.ts).
      [ERASE_DUE_ACCOUNTS_JOB]: async () => {
        await run(runDataRights);
      },
      // The shadow model's answers for a report the shipped model analysed (issue 41, item 5).
      [Learning.SHADOW_MEASURE_JOB]: async (payload) => {
        const started = performance.now();
        try {
          await run(Learning.measureShadow(String(payload.reportId)));
          // Not counted in the per-photo histogram: that one is the report's critical path.
          observeJob(Learning.SHADOW_MEASURE_JOB, "done", (performance.now() - started) / 1000);
        } catch (error) {
          observeJob(Learning.SHADOW_MEASURE_JOB, "failed", (performance.now() - started) / 1000);
          throw error;
        }
      },
      [ANALYZE_REPORT_JOB]: async (payload, job) => {
        const started = performance.now();
        const reportId = String(payload.reportId);
        try {
          // The shipped model as the database names it now: a promotion reaches every worker at its next job.
          await run(Learning.withShippedModel(analyzeReport(reportId)));
          // The shadow's own job, queued once the report is analysed: it never delays one (ADR 0159).
          // Also on a retry that finds the report analysed, so a worker that died here loses no shadow job.
          await run(Learning.queueShadowMeasurement(reportId));
          // The photos this round measured: the job's time per photo for the metrics (ADR 0142).
          const measured = await sql<{ n: number }>`select count(*)::int as n from measurements m join reports r on r.id = m.report_id and r.round = m.round where m.report_id = ${reportId}`.execute(db);
          observeJob(ANALYZE_REPORT_JOB, "done", (performance.now() - started) / 1000, Number(measured.rows[0]?.n ?? 0));
        } catch (error) {
          observeJob(ANALYZE_REPORT_JOB, "failed", (performance.now() - started) / 1000);
          // On the last attempt the report goes to review with the reason: never a silent failure.
          if (job.attempts >= job.max_attempts) await run(giveUpAnalysis(reportId, error instanceof Error ? error.message : String(error)));
          throw error;
        }
      },
    },
  });
