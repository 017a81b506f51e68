import { Effect, Option } from "effect";
import { HeadContourModel } from "../measurement/model.ts";
import { audit, now, transaction } from "../shared/ports.ts";
import { advance } from "./advance.ts";
import { prepareDerivedImages } from "./derived.ts";
import { analysing, awaitsAnalysis } from "./lifecycle.ts";
import { analyzeVideo, failedMeasurement, measureBytes, measurementOf, readBlob, summarize } from "./measure.ts";
import { Attachments, FrameExtractor, Measurements, Reports } from "./model.ts";
import { reportSettings as settings } from "./policy.ts";
import { ANALYSIS_PROBLEMS } from "./requests.ts";

/**
 * The analysis job: measures every photo of the report's round and frames taken from its videos,
 * records each measurement as soon as it is made (so a retried job skips what is done), then
 * aggregates the accepted ones and moves the report to `analyzed`. Whatever could not be done
 * (an unreadable photo, no accepted photo, no ffmpeg, no model) is written down as a problem for
 * the reviewer and the report, never dropped silently.
 */

/** The job handler for `analyze-report`. Safe to run any number of times for the same report. */
export const analyzeReport = (reportId: string) =>
  Effect.gen(function* () {
    const reports = yield* Reports;
    const attachments = yield* Attachments;
    const measurements = yield* Measurements;
    const started = yield* transaction(
      Effect.gen(function* () {
        const locked = yield* reports.lock(reportId);
        if (Option.isNone(locked)) return Option.none();
        const report = locked.value;
        if (!awaitsAnalysis(report.status)) return Option.none();
        const status = yield* advance(report, { type: "ANALYSIS_STARTED" });
        if (status !== report.status) yield* reports.update(report.id, { status, updatedAt: yield* now });
        return Option.some(report);
      }),
    ).pipe(Effect.orDie);
    if (Option.isNone(started)) return { skipped: true as const };
    const report = started.value;
    const all = yield* attachments.listByReport(report.id);
    const round = all.filter((a) => a.round === report.round);
    const done = new Set((yield* measurements.listByReport(report.id)).map((m) => m.attachmentId));
    const problems: string[] = [];
    const model = yield* Effect.serviceOption(HeadContourModel);
    if (Option.isNone(model)) problems.push(ANALYSIS_PROBLEMS.noModel);

    for (const photo of round.filter((a) => a.kind === "image" && !done.has(a.id))) {
      const at = yield* now;
      const bytes = yield* readBlob(photo.blobKey);
      // A photo that breaks the decoder or the model is recorded as unreadable, not a failed job.
      const outcome = Option.isNone(bytes)
        ? ({ kind: "unreadable" } as const)
        : yield* Effect.catchAllDefect(measureBytes(bytes.value), () => Effect.succeed({ kind: "unreadable" } as const));
      const measurement =
        outcome.kind === "measured"
          ? measurementOf(photo, outcome.analysis, outcome.size, at, outcome.model)
          : failedMeasurement(photo, outcome.kind === "unreadable" ? ANALYSIS_PROBLEMS.unreadable(photo.fileName) : ANALYSIS_PROBLEMS.noModel, at);
      yield* measurements.upsert(measurement);
      // The display copy and thumbnail are made now, while the bytes are here: views never decode (ADR 0031).
      // A failure to store them fails this attempt like any write; the retry skips what is measured.
      if (Option.isSome(bytes)) yield* prepareDerivedImages(photo, bytes.value);
    }
    const videos = round.filter((a) => a.kind === "video");
    if (videos.length > 0 && Option.isSome(model)) {
      const why = yield* (yield* FrameExtractor).unavailable();
      if (why !== null) problems.push(ANALYSIS_PROBLEMS.noFfmpeg(why));
      else for (const video of videos) Option.map(yield* analyzeVideo(video, all), (p) => problems.push(p));
    }
    for (const m of yield* measurements.listByReport(report.id)) {
      if (m.round === report.round && m.error !== null && m.error !== ANALYSIS_PROBLEMS.noModel) problems.push(m.error);
    }
    return yield* transaction(
      Effect.gen(function* () {
        const locked = Option.getOrThrow(yield* reports.lock(report.id));
        if (!analysing(locked.status)) return { skipped: true as const };
        const current = (yield* measurements.listByReport(report.id)).filter((m) => m.round === report.round);
        const summary = summarize(current, problems, (yield* settings).measurementError);
        const status = yield* advance(locked, { type: "ANALYSIS_FINISHED" });
        const at = yield* now;
        yield* reports.update(report.id, { status, analysis: summary, analyzedAt: at, updatedAt: at });
        yield* audit({ action: "report.analyzed", actorId: null, subjectId: report.id, details: { accepted: summary.accepted, problems: summary.problems.length } });
        return { skipped: false as const, summary };
      }),
    ).pipe(Effect.orDie);
  });

/**
 * The job's last attempt failed: the report goes to review with the reason instead of waiting in
 * `analyzing` for ever. Measurements already recorded are kept and counted.
 */
export const giveUpAnalysis = (reportId: string, reason: string) =>
  transaction(
    Effect.gen(function* () {
      const reports = yield* Reports;
      const locked = yield* reports.lock(reportId);
      if (Option.isNone(locked)) return;
      let report = locked.value;
      // A job that never started is started first, so the report goes through every step.
      if (!analysing(report.status) && awaitsAnalysis(report.status)) {
        const status = yield* advance(report, { type: "ANALYSIS_STARTED" });
        report = { ...report, status };
      }
      if (!analysing(report.status)) return;
      const current = (yield* (yield* Measurements).listByReport(report.id)).filter((m) => m.round === report.round);
      const summary = summarize(current, [`${ANALYSIS_PROBLEMS.failed}: ${reason.slice(0, 300)}`], (yield* settings).measurementError);
      const status = yield* advance(report, { type: "ANALYSIS_FINISHED" });
      const at = yield* now;
      yield* reports.update(report.id, { status, analysis: summary, analyzedAt: at, updatedAt: at });
      yield* audit({ action: "report.analysis_failed", actorId: null, subjectId: report.id, details: { reason: reason.slice(0, 300) } });
    }),
  ).pipe(Effect.orDie);
