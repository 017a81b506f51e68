// The nose tip and the sticker, found in the model's heatmap and disc maps.
import type { Point } from "./image.ts";
import { largestRegion, polygonCentroid, polygonSemiMajorAxis, sigmoid, traceOutline, type ProbabilityMap } from "./outline.ts";

export interface NoseTip extends Point {
  /** The heatmap's peak probability. */
  readonly confidence: number;
}

export interface NoseOptions {
  /** The peak probability below which there is no nose. */
  readonly presence?: number;
  /** Half-width of the window around the peak used for the sub-pixel position. */
  readonly radius?: number;
}

/**
 * The nose tip: the heatmap's peak, refined by a soft-argmax (probability-weighted centroid) in a
 * small window around it, so the position is sub-pixel. Null when the peak's probability is below
 * `presence`. The map holds the model's logits: the peak is found on them directly and only the
 * window is turned into probabilities. Coordinates are in map pixels with pixel centres at i + 0.5.
 */
export const findNoseTip = (logits: ProbabilityMap, options: NoseOptions = {}): NoseTip | null => {
  const presence = options.presence ?? 0.5;
  const radius = options.radius ?? 7;
  const { width, height, data } = logits;
  let peak = -1;
  let peakLogit = -Infinity;
  for (let i = 0; i < data.length; i++) {
    if (data[i]! > peakLogit) {
      peakLogit = data[i]!;
      peak = i;
    }
  }
  const peakValue = sigmoid(peakLogit);
  if (peak < 0 || !(peakValue >= presence)) return null;
  const px = peak % width;
  const py = (peak - px) / width;
  // Weights above a floor, so the near-zero background does not pull the centroid to the window centre.
  const floor = peakValue * 0.05;
  let sum = 0;
  let sx = 0;
  let sy = 0;
  for (let y = Math.max(0, py - radius); y <= Math.min(height - 1, py + radius); y++) {
    for (let x = Math.max(0, px - radius); x <= Math.min(width - 1, px + radius); x++) {
      const w = sigmoid(data[y * width + x]!) - floor;
      if (w <= 0) continue;
      sum += w;
      sx += w * (x + 0.5);
      sy += w * (y + 0.5);
    }
  }
  return { x: sx / sum, y: sy / sum, confidence: peakValue };
};

export interface StickerDisc {
  readonly centre: Point;
  /** Radius in map pixels (or photo pixels once mapped). */
  readonly radius: number;
}

/**
 * The sticker: the largest region of the disc map, its centre, and its radius as the semi-major axis of
 * its sub-pixel outline. The sticker is a flat disc on a curved vault: where it sits off the camera's
 * axis, or the head is tipped, it shows as an ellipse whose long axis keeps the disc's diameter while the
 * short one shrinks; a radius from the area read such stickers as small and every length as too long
 * (ADR 0113). Null when there is none, or it is too small to give a trustworthy scale.
 * `level` is 0 for a map of logits (see traceOutline), 0.5 for probabilities.
 */
export const findSticker = (map: ProbabilityMap, level = 0, minRadius = 2): StickerDisc | null => {
  const region = largestRegion(map, level);
  if (!region) return null;
  const outline = traceOutline(map, region, level);
  if (outline.length < 3) return null;
  const radius = polygonSemiMajorAxis(outline);
  if (radius < minRadius) return null;
  return { centre: polygonCentroid(outline), radius };
};
