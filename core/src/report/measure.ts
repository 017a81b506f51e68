import { Effect, Option } from "effect";
import { aggregateAccepted } from "../measurement/aggregate.ts";
import { agreementOf, FALLBACK_MEASUREMENT_ERROR, type MeasurementError } from "../measurement/agreement.ts";
import { analyzePhoto, type PhotoAnalysis } from "../measurement/analyze.ts";
import { measureHead } from "../measurement/geometry.ts";
import type { Point } from "../measurement/image.ts";
import { HeadContourModel, type MeasuringModel } from "../measurement/model.ts";
import { BlobStore, now, Random, transaction } from "../shared/ports.ts";
import { discardBlobs, keepBlobs, putPending } from "../shared/pending-blobs.ts";
import {
  type AnalysisSummary,
  type Attachment,
  Attachments,
  ContentHasher,
  FrameExtractor,
  Images,
  isCounted,
  type Measurement,
  Measurements,
  type PhotoGeometry,
} from "./model.ts";
import { reportSettings as settings } from "./policy.ts";
import { ANALYSIS_PROBLEMS } from "./requests.ts";

/** Measuring one round's photos and video frames, and summing them up: the analysis job's steps (analyze-report.ts). */

export const readBlob = (key: string) =>
  Effect.gen(function* () {
    const blob = yield* (yield* BlobStore).get(key);
    if (Option.isNone(blob)) return Option.none<Uint8Array>();
    return Option.some(new Uint8Array(yield* Effect.promise(() => new Response(blob.value.body).arrayBuffer())));
  });

/** The full geometry (with the AP and width segments) for an outline and a nose tip. */
export const geometryOf = (
  analysis: { readonly outline: ReadonlyArray<Point>; readonly noseTip: Point | null; readonly sticker: PhotoAnalysis["sticker"] },
  size: { width: number; height: number },
): PhotoGeometry => {
  const head = analysis.noseTip && analysis.outline.length >= 3 ? measureHead(analysis.outline, analysis.noseTip) : null;
  return {
    imageWidth: size.width,
    imageHeight: size.height,
    outline: analysis.outline,
    noseTip: analysis.noseTip,
    centre: head?.centre ?? null,
    apAxis: head?.apAxis ?? null,
    length: head?.length ?? null,
    width: head?.width ?? null,
    lengthEnds: head?.lengthEnds ?? null,
    widthEnds: head?.widthEnds ?? null,
    diagonals: head?.diagonals ?? null,
    sticker: analysis.sticker,
  };
};

/** What every new measurement of `attachment` starts with: no reviewer has decided or corrected anything yet. */
const unreviewed = (attachment: Attachment, at: Date) =>
  ({
    attachmentId: attachment.id,
    reportId: attachment.reportId,
    round: attachment.round,
    decision: null,
    noseCorrected: false,
    outlineCorrected: false,
    modelAnswer: null,
    correctedBy: null,
    correctedAt: null,
    decisionReason: null,
    createdAt: at,
    updatedAt: at,
  }) satisfies Partial<Measurement>;

export const measurementOf = (attachment: Attachment, analysis: PhotoAnalysis, size: { width: number; height: number }, at: Date, model: MeasuringModel | null): Measurement => ({
  ...unreviewed(attachment, at),
  accepted: analysis.accepted,
  verdict: analysis.verdict,
  reasons: analysis.reasons,
  qualityMargin: Number.isFinite(analysis.qualityMargin) ? analysis.qualityMargin : null,
  ci: analysis.ci,
  cvai: analysis.cvai,
  cvaMm: analysis.cva_mm,
  geometry: geometryOf(analysis, size),
  error: null,
  model,
});

export const failedMeasurement = (attachment: Attachment, error: string, at: Date): Measurement => ({
  ...unreviewed(attachment, at),
  accepted: false,
  // Unreadable: the parent has to send another photo.
  verdict: "retake",
  reasons: [],
  qualityMargin: null,
  ci: null,
  cvai: null,
  cvaMm: null,
  geometry: null,
  error,
  model: null,
});

/** Measures one decoded photo, or None when the bytes are no image. */
export const measureBytes = (bytes: Uint8Array) =>
  Effect.gen(function* () {
    const config = yield* settings;
    const model = yield* Effect.serviceOption(HeadContourModel);
    const image = yield* (yield* Images).decode(bytes, config.analysisMaxSide);
    if (Option.isNone(image)) return { kind: "unreadable" as const };
    if (Option.isNone(model)) return { kind: "no-model" as const };
    const analysis = yield* Effect.promise(() => analyzePhoto(image.value, model.value, config.analyze));
    // The model's name and version go with the numbers it made, never looked up later (ADR 0066).
    return { kind: "measured" as const, analysis, size: { width: image.value.width, height: image.value.height }, model: model.value.identity ?? null };
  });

/**
 * The aggregate of a round's measurements, with the problems found, whether the counted photos
 * agree within the model's error, and how many of them no reviewer has confirmed yet.
 */
export const summarize = (measurements: ReadonlyArray<Measurement>, problems: ReadonlyArray<string>, error: MeasurementError = FALLBACK_MEASUREMENT_ERROR): AnalysisSummary => {
  const counted = measurements.map((m) => ({ accepted: isCounted(m), ci: m.ci, cvai: m.cvai, cva_mm: m.cvaMm }));
  const aggregate = aggregateAccepted(counted);
  const all = [...problems];
  if (aggregate.accepted === 0 && !all.includes(ANALYSIS_PROBLEMS.noAccepted)) all.push(ANALYSIS_PROBLEMS.noAccepted);
  return {
    ...aggregate,
    measured: measurements.filter((m) => m.error === null && m.ci !== null).length,
    problems: all,
    agreement: agreementOf(aggregate, error),
    unconfirmed: measurements.filter((m) => isCounted(m) && m.decision === null).length,
    ...modelsOf(measurements.filter(isCounted)),
  };
};

/** The distinct models of the counted photos; nothing when one of them is unknown (it would name a model that may not have measured). */
const modelsOf = (counted: ReadonlyArray<Measurement>): { models?: ReadonlyArray<MeasuringModel> } => {
  if (counted.length === 0 || counted.some((m) => m.model === null)) return {};
  const byName = new Map(counted.map((m) => [JSON.stringify([m.model!.name, m.model!.version]), m.model!]));
  return { models: [...byName.values()] };
};

export const analyzeVideo = (video: Attachment, known: ReadonlyArray<Attachment>) =>
  Effect.gen(function* () {
    const config = yield* settings;
    const attachments = yield* Attachments;
    const measurements = yield* Measurements;
    // A retried job keeps the frames an earlier run already recorded.
    if (known.some((a) => a.kind === "frame" && a.sourceId === video.id)) return Option.none<string>();
    const extractor = yield* FrameExtractor;
    const blob = yield* (yield* BlobStore).get(video.blobKey);
    if (Option.isNone(blob)) return Option.some(ANALYSIS_PROBLEMS.noFrames(video.fileName, "the file is missing"));
    const extracted = yield* extractor.extract(blob.value.body, video.extension, config.videoFps, config.framesPerVideo);
    if ("error" in extracted) return Option.some(ANALYSIS_PROBLEMS.noFrames(video.fileName, extracted.error));
    const measured: Array<{ frame: (typeof extracted.frames)[number]; outcome: Effect.Effect.Success<ReturnType<typeof measureBytes>> }> = [];
    for (const frame of extracted.frames) measured.push({ frame, outcome: yield* measureBytes(frame.jpeg) });
    // Keep the best frames: accepted first, then by the quality margin.
    const ranked = measured
      .filter((m) => m.outcome.kind === "measured")
      .sort((a, b) => {
        const x = a.outcome.kind === "measured" ? a.outcome.analysis : null;
        const y = b.outcome.kind === "measured" ? b.outcome.analysis : null;
        return Number(y!.accepted) - Number(x!.accepted) || x!.qualityMargin - y!.qualityMargin;
      })
      .slice(0, config.keptFramesPerVideo);
    if (ranked.length === 0) return Option.some(ANALYSIS_PROBLEMS.noFrames(video.fileName, "no frame could be measured"));
    const random = yield* Random;
    const hasher = yield* ContentHasher;
    const at = yield* now;
    const rows: Array<{ attachment: Attachment; measurement: Measurement }> = [];
    for (const { frame, outcome } of ranked) {
      if (outcome.kind !== "measured") continue;
      const id = random.identifier();
      const key = `attachments/${id}.jpg`;
      // Pending until the frames are recorded (ADR 0051): a worker killed before that leaves them to the sweep.
      yield* putPending(key, frame.jpeg, "image/jpeg");
      const digest = hasher.sha256();
      digest.update(frame.jpeg);
      const attachment: Attachment = {
        id,
        reportId: video.reportId,
        round: video.round,
        kind: "frame",
        fileName: `${video.fileName} @ ${frame.time.toFixed(1)} s`,
        extension: "jpg",
        mime: "image/jpeg",
        size: frame.jpeg.byteLength,
        sha256: digest.hex(),
        blobKey: key,
        sourceId: video.id,
        frameTime: frame.time,
        createdAt: at,
      };
      rows.push({ attachment, measurement: measurementOf(attachment, outcome.analysis, outcome.size, at, outcome.model) });
    }
    // The frames of one video are recorded together or not at all.
    yield* transaction(
      Effect.zipRight(
        Effect.forEach(rows, ({ attachment, measurement }) => Effect.zipRight(attachments.insert(attachment), measurements.upsert(measurement)), {
          discard: true,
        }),
        keepBlobs(rows.map((r) => r.attachment.blobKey)),
      ),
    ).pipe(Effect.tapErrorCause(() => discardBlobs(rows.map((r) => r.attachment.blobKey))));
    return Option.none<string>();
  });

