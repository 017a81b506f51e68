/**
 * render.py, Crown's training renderer, calls a nose visible only when at least max(4, (0.02 D)^2) of its
 * pixels show, D the head's equivalent diameter in pixels (ADR 0097, unchanged since); render2 calls it
 * visible with 4 nose pixels near the tip, whatever the head's size (ADR 0112). The benches split render2's
 * good photos by render.py's rule so that each figure can be read against both.
 */
export interface NoseTruth {
  readonly ci: number;
  /** data.py sets: render.py's D. */
  readonly head_diam?: number;
  /** render2 sets: the longer of the section's horizontal and vertical spans in pixels. */
  readonly head_px?: number;
  /** render2 sets: how many nose pixels show. */
  readonly nose_pixels?: number;
}

/**
 * Whether fewer nose pixels show than render.py's rule asks; undefined for a set without the counts. For
 * render2, D is its extent times sqrt(CI / 100), the equivalent diameter of an elliptic section (within a
 * few percent: the extent is measured along the photo's axes, not the head's).
 */
export const underNoseRule = (item: NoseTruth): boolean | undefined => {
  const ratio = noseRuleRatio(item);
  return ratio === undefined ? undefined : ratio < 1;
};

/**
 * How many times render.py's threshold for a visible nose the nose's pixels are (below 1: under the rule);
 * undefined for a set without the counts. render.py's own sets (data.py eval) record the counts too since
 * ADR 0116: every good photo there is at 1 or more, and its smallest noses are slivers of a few pixels.
 */
export const noseRuleRatio = (item: NoseTruth): number | undefined => {
  const diameter = item.head_diam ?? (item.head_px === undefined ? undefined : item.head_px * Math.sqrt(item.ci / 100));
  if (item.nose_pixels === undefined || diameter === undefined) return undefined;
  return item.nose_pixels / Math.max(4, (0.02 * diameter) ** 2);
};

/** Bands of `noseRuleRatio` the benches report noses found in: under the rule, 1-2x, 2-4x, 4-8x, 8x and more. */
export const NOSE_SIZE_BANDS: readonly (readonly [string, number, number])[] = [
  ["under render.py's rule", 0, 1],
  ["1-2x the rule", 1, 2],
  ["2-4x", 2, 4],
  ["4-8x", 4, 8],
  [">= 8x", 8, Infinity],
];
