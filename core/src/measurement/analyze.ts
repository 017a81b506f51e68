// One photo in, one measurement out: the two-pass pipeline shared by the server, the browser and the kiosk.
import { measureHead, cvaMillimetres, type HeadGeometry, type Segment } from "./geometry.ts";
import { cropAround, letterbox, photoRectInInput, toPhoto, type Box, type InputTransform, type Point, type RgbImage } from "./image.ts";
import { findNoseTip, findSticker, type StickerDisc } from "./landmarks.ts";
import type { HeadContourModel, HeadContourOutputs } from "./model.ts";
import { largestRegion, logitMap, polygonArea, polygonCentroid, regionTouches, sigmoid, sigmoidMap, solidity, traceOutline, type ProbabilityMap, type Outline, type Region } from "./outline.ts";
import { trimBulges, type BulgeOptions } from "./bulges.ts";
import { withViews, type ViewCount } from "./views.ts";
import {
  DEFAULT_REASON_THRESHOLDS,
  DEFAULT_VERDICT_POLICY,
  judgePhoto,
  qualityMargin,
  QUALITY_REASONS,
  type GeometricFindings,
  type MeasurementFindings,
  type QualityReason,
  type ReasonThresholds,
  type ReferralCause,
  type VerdictOutcome,
  type VerdictPolicy,
} from "./verdict.ts";

export interface AnalyzeOptions {
  /** The model's input side (model.json `input_size`). */
  readonly inputSize?: number;
  /** The printed sticker's diameter (model.json `sticker_diameter_mm`). */
  readonly stickerDiameterMm?: number;
  readonly thresholds?: ReasonThresholds;
  /** When to ask for a retake and what to refer (verdict.ts); DEFAULT_VERDICT_POLICY unless given. */
  readonly verdictPolicy?: VerdictPolicy;
  /**
   * Work out every finding a policy may use even when this one does not (the whole photo's own axis costs a
   * second outline trace): for benches that re-judge one analysis under several policies.
   */
  readonly allFindings?: boolean;
  /** Peak probability of the nose heatmap below which there is no nose. */
  readonly nosePresence?: number;
  /** The head's share of the second pass's square crop. */
  readonly headShareOfCrop?: number;
  /**
   * Trace the 0.5 iso-line by linear interpolation of the logits (default) or of the probabilities.
   * Logits suit a confident model whose probabilities jump from 0 to 1 within a pixel.
   */
  readonly outlineFrom?: "logits" | "probabilities";
  /**
   * Below this solidity (area / convex hull area) the outline counts as obstructed. 0.97 rejected
   * 3 of 122 good held-out renders (all badly measured) and caught a quarter of the obstructed ones.
   */
  readonly minSolidity?: number;
  /**
   * How many turns and mirrors of the close-up the model looks at, their maps averaged (views.ts).
   * More views measure better and cost one model pass each: the server takes its time over a photo,
   * live capture judges frames with one.
   */
  readonly closeUpViews?: ViewCount;
  /** Cut the ears' bulges off the outline before measuring (default), or `false` to measure it as traced. */
  readonly trimBulges?: BulgeOptions | false;
}

export interface PhotoAnalysis {
  /** accept, retake (with reasons) or refer to the reviewer (with doubts): verdict.ts. */
  readonly verdict: VerdictOutcome;
  /** verdict === "accept". */
  readonly accepted: boolean;
  readonly reasons: QualityReason[];
  /** Why the photo is referred; empty unless verdict === "refer". */
  readonly doubts: ReferralCause[];
  /** What the verdict was decided from besides the probabilities (to re-judge a photo under another policy). */
  readonly findings: GeometricFindings;
  /** The model's probability for each of QUALITY_REASONS, from the close-up (or the whole photo without a head). */
  readonly quality: number[];
  /** Largest probability-to-threshold ratio; lower is a better photo. */
  readonly qualityMargin: number;
  /** Measured whenever a head and a nose were found, even on rejected photos; null otherwise. */
  readonly ci: number | null;
  readonly cvai: number | null;
  /** Only with a sticker in the photo; never guessed. */
  readonly cva_mm: number | null;
  /** All geometry below is in photo pixels. */
  readonly outline: Point[];
  readonly noseTip: Point | null;
  readonly centre: Point | null;
  readonly apAxis: Point | null;
  readonly length: number | null;
  readonly width: number | null;
  readonly diagonals: { readonly a: number; readonly b: number; readonly endpoints: { readonly a: Segment; readonly b: Segment } } | null;
  readonly sticker: StickerDisc | null;
  /** The square the second pass looked at, or null when there was no head to look at. */
  readonly crop: Box | null;
}

export interface PassResult {
  readonly transform: InputTransform;
  readonly region: Region | null;
  readonly noseTip: Point | null;
  /** The nose heatmap's peak probability where a nose was found. */
  readonly noseConfidence: number | null;
  readonly quality: number[];
  /** Each view's quality probabilities, when the pass looked at several views. */
  readonly viewQuality: number[][] | null;
  readonly touchesFrame: boolean;
  /** The head outline in photo pixels; traced on demand (the whole-photo pass rarely needs it). */
  outline(): Point[];
  sticker(): StickerDisc | null;
}

/** Read one image's outputs (index `i` of the batch) in photo coordinates. */
export const readOutputs = (
  outputs: HeadContourOutputs,
  i: number,
  transform: InputTransform,
  photo: { width: number; height: number },
  nosePresence = 0.5,
  outlineFrom: "logits" | "probabilities" = "logits",
): PassResult => {
  const size = transform.size;
  const plane = size * size;
  const slice = (a: Float32Array): Float32Array => a.subarray(i * plane, (i + 1) * plane);
  // Logits at level 0 or probabilities at 0.5: the same region, a different interpolation.
  const level = outlineFrom === "logits" ? 0 : 0.5;
  const toMap = (a: Float32Array): ProbabilityMap =>
    outlineFrom === "logits" ? logitMap(slice(a), size, size) : sigmoidMap(slice(a), size, size);
  const mask = toMap(outputs.mask);
  const region = largestRegion(mask, level);
  const nose = findNoseTip(logitMap(slice(outputs.nose), size, size), { presence: nosePresence });
  const reasons = QUALITY_REASONS.length;
  const quality = Array.from(outputs.quality.subarray(i * reasons, (i + 1) * reasons), sigmoid);
  const views = outputs.viewQuality ? outputs.viewQuality.length / outputs.quality.length : 0;
  const viewQuality = outputs.viewQuality
    ? Array.from({ length: views }, (_, v) => Array.from(outputs.viewQuality!.subarray((i * views + v) * reasons, (i * views + v + 1) * reasons), sigmoid))
    : null;
  return {
    transform,
    region,
    noseTip: nose ? toPhoto(transform, nose) : null,
    noseConfidence: nose ? nose.confidence : null,
    quality,
    viewQuality,
    touchesFrame: region !== null && regionTouches(region, photoRectInInput(transform, photo)),
    outline: () => (region ? traceOutline(mask, region, level).map((p) => toPhoto(transform, p)) : []),
    sticker: () => {
      const disc = findSticker(toMap(outputs.sticker), level);
      return disc ? { centre: toPhoto(transform, disc.centre), radius: disc.radius * transform.scale } : null;
    },
  };
};

/**
 * The square crop for the second pass: centred on the head's box from the first pass, the head
 * taking `share` of its side, so the model sees the outline at about twice the resolution.
 */
export const headCrop = (region: Region, transform: InputTransform, share: number): Box => {
  const b = region.bounds;
  const topLeft = toPhoto(transform, { x: b.x, y: b.y });
  const width = b.width * transform.scale;
  const height = b.height * transform.scale;
  const side = Math.max(width, height) / share;
  return { x: topLeft.x + width / 2 - side / 2, y: topLeft.y + height / 2 - side / 2, width: side, height: side };
};

export const analyzePhoto = async (image: RgbImage, model: HeadContourModel, options: AnalyzeOptions = {}): Promise<PhotoAnalysis> => {
  const size = options.inputSize ?? 160;
  const thresholds = options.thresholds ?? DEFAULT_REASON_THRESHOLDS;
  const nosePresence = options.nosePresence ?? 0.5;
  const policy = options.verdictPolicy ?? DEFAULT_VERDICT_POLICY;

  const whole = letterbox(image, size);
  const outlineFrom = options.outlineFrom ?? "logits";
  const first = readOutputs(await model.run(whole.tensor, 1), 0, whole.transform, image, nosePresence, outlineFrom);

  let refined: PassResult | null = null;
  let crop: Box | null = null;
  if (first.region) {
    crop = headCrop(first.region, whole.transform, options.headShareOfCrop ?? 0.7);
    const closeUp = cropAround(image, crop, size);
    const closeUpModel = withViews(model, size, options.closeUpViews ?? 1);
    refined = readOutputs(await closeUpModel.run(closeUp.tensor, 1), 0, closeUp.transform, image, nosePresence, outlineFrom);
  }

  // The close-up judges quality (blur, hair, tilt show better at twice the resolution; a head cut by
  // the photo's edge shows as the crop's zero padding), as models/head-contour/evaluate.py does.
  const quality = refined?.quality ?? first.quality;
  const judged = refined ?? first;
  // Prefer the close-up; fall back to the whole photo where the close-up found nothing.
  const useRefined = refined !== null && refined.region !== null;
  const outline = useRefined ? refined!.outline() : first.outline();
  // The nose comes from the pass the outline came from. Where the close-up, at twice the resolution,
  // finds no nose, the whole photo's peak was wrong on 10 of 13 such good held-out renders, mostly an
  // ear or the back of the head: a retake beats a measurement along the wrong axis. A nose tip sits just
  // beyond the forehead; a peak far from the head (or in its middle) is not one.
  const candidate = useRefined ? refined!.noseTip : first.noseTip;
  const noseTip = candidate !== null && plausibleNose(outline, candidate) ? candidate : null;
  const sticker = useRefined ? refined!.sticker() : first.sticker();
  const headFound = outline.length >= 3;
  // What is measured (and shown) is the outline with the ears' bulges cut back (bulges.ts).
  const bulges = options.trimBulges ?? {};
  const measured = headFound && bulges !== false ? trimBulges(outline, bulges) : outline;

  const geometry = headFound && noseTip ? measureHead(measured, noseTip) : null;
  const findings: GeometricFindings = {
    // An outline the geometry cannot measure (degenerate, or not around its own centre) is no head outline.
    headFound: headFound && (noseTip === null || geometry !== null),
    headTouchesFrame: first.touchesFrame || (useRefined && refined!.touchesFrame),
    // On the outline as traced: trimming only removes outward bulges, never the bite of a finger.
    headObstructed: headFound && solidity(outline) < (options.minSolidity ?? 0.97),
    noseFound: noseTip !== null,
    // Only a nose where a nose can be speaks against a no-nose reason (a peak on an ear does not).
    noseConfidence: noseTip === null ? null : useRefined ? refined!.noseConfidence : first.noseConfidence,
    viewProbabilities: judged.viewQuality,
    measurement:
      geometry && noseTip ? measurementFindings(geometry, noseTip, useRefined && ((policy.plausible?.maxAxisDisagreementDeg ?? 180) < 180 || options.allFindings === true) ? first : null) : null,
  };
  const verdict = judgePhoto(quality, findings, thresholds, policy);
  // The sticker sits on the head and is small beside it (30 mm on a head about 150 mm wide);
  // anything else is not the sticker, and then there is no scale rather than a wrong one.
  const measuredSticker =
    sticker !== null && geometry !== null && insideOutline(outline, sticker.centre) && sticker.radius <= 0.25 * geometry.width
      ? sticker
      : null;

  return {
    verdict: verdict.outcome,
    accepted: verdict.accepted,
    reasons: verdict.reasons,
    doubts: verdict.doubts,
    findings,
    quality,
    qualityMargin: qualityMargin(quality, thresholds),
    ci: geometry?.ci ?? null,
    cvai: geometry?.cvai ?? null,
    cva_mm: geometry
      ? cvaMillimetres(geometry, measuredSticker ? 2 * measuredSticker.radius : null, options.stickerDiameterMm ?? 30)
      : null,
    outline: measured,
    noseTip,
    centre: geometry?.centre ?? null,
    apAxis: geometry?.apAxis ?? null,
    length: geometry?.length ?? null,
    width: geometry?.width ?? null,
    diagonals: geometry?.diagonals ?? null,
    sticker: measuredSticker,
    crop,
  };
};

/**
 * The measurement's plausibility figures: where the nose tip lies along the axis (over half the length) and,
 * when the close-up measured, how far the whole photo's own axis turns from the close-up's (a nose found on
 * the wrong side of the head turns it by up to 180 degrees).
 */
const measurementFindings = (geometry: HeadGeometry, noseTip: Point, whole: PassResult | null): MeasurementFindings => {
  const along = ((noseTip.x - geometry.centre.x) * geometry.apAxis.x + (noseTip.y - geometry.centre.y) * geometry.apAxis.y) / (geometry.length / 2);
  let axisDisagreementDeg: number | null = null;
  if (whole !== null && whole.noseTip !== null && whole.region !== null) {
    const wholeOutline = whole.outline();
    const wholeGeometry = wholeOutline.length >= 3 ? measureHead(wholeOutline, whole.noseTip) : null;
    if (wholeGeometry) {
      const dot = geometry.apAxis.x * wholeGeometry.apAxis.x + geometry.apAxis.y * wholeGeometry.apAxis.y;
      axisDisagreementDeg = (Math.acos(Math.max(-1, Math.min(1, dot))) * 180) / Math.PI;
    }
  }
  return { ci: geometry.ci, noseAlong: along, axisDisagreementDeg };
};

/** Whether `nose` lies where a nose tip can: between half and twice the head's radius from its centroid. */
export const plausibleNose = (outline: Outline, nose: Point): boolean => {
  if (outline.length < 3) return true;
  const centre = polygonCentroid(outline);
  const radius = Math.sqrt(Math.abs(polygonArea(outline)) / Math.PI);
  const distance = Math.hypot(nose.x - centre.x, nose.y - centre.y);
  return distance >= 0.5 * radius && distance <= 2 * radius;
};

/** Even-odd point-in-polygon: the sticker sits on the head, so a disc elsewhere is not the sticker. */
export const insideOutline = (outline: Outline, p: Point): boolean => {
  let inside = false;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const a = outline[i]!;
    const b = outline[j]!;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
};
