// The quality verdict: accept or reject a photo, with the reasons named as in the quiz.

/** The eight bad-image reasons, in the order of the model's `quality` output. */
export const QUALITY_REASONS = [
  "Image is blurry",
  "No nose visible",
  "Head contour is incomplete (obstructed by hand, finger, or outside the frame)",
  "Head is tilted (cheek asymmetry)",
  "Too much of the face is present (head tilted back)",
  "Hair artifact present",
  "Head tilted to the left or right",
  "No nose, back view",
] as const;

export type QualityReason = (typeof QUALITY_REASONS)[number];

/** The probability at or above which a reason rejects the photo; data, so it can be tuned per reason. */
export type ReasonThresholds = Readonly<Record<QualityReason, number>>;

export const DEFAULT_REASON_THRESHOLDS: ReasonThresholds = {
  "Image is blurry": 0.5,
  "No nose visible": 0.5,
  "Head contour is incomplete (obstructed by hand, finger, or outside the frame)": 0.5,
  "Head is tilted (cheek asymmetry)": 0.5,
  "Too much of the face is present (head tilted back)": 0.5,
  "Hair artifact present": 0.5,
  "Head tilted to the left or right": 0.5,
  "No nose, back view": 0.5,
};

/** What the geometry saw, independent of the model's own quality head. */
export interface GeometricFindings {
  readonly headFound: boolean;
  /** The head region reaches the edge of the photo, so part of it may be outside. */
  readonly headTouchesFrame: boolean;
  /** Something bites into the outline (a hand, a finger): see solidity. */
  readonly headObstructed?: boolean;
  readonly noseFound: boolean;
}

export interface Verdict {
  readonly accepted: boolean;
  /** In the order of QUALITY_REASONS, each at most once. */
  readonly reasons: QualityReason[];
}

/**
 * Accept iff no reason's probability reaches its threshold and the geometry found a whole head
 * and a nose. A missing nose already explained by "No nose, back view" is not reported twice.
 */
export const judgePhoto = (
  probabilities: ArrayLike<number>,
  findings: GeometricFindings,
  thresholds: ReasonThresholds = DEFAULT_REASON_THRESHOLDS,
): Verdict => {
  if (probabilities.length !== QUALITY_REASONS.length) {
    throw new RangeError(`Expected ${QUALITY_REASONS.length} quality probabilities, got ${probabilities.length}`);
  }
  const flagged = new Set<QualityReason>();
  QUALITY_REASONS.forEach((reason, i) => {
    if (probabilities[i]! >= thresholds[reason]) flagged.add(reason);
  });
  if (!findings.headFound || findings.headTouchesFrame || findings.headObstructed) {
    flagged.add("Head contour is incomplete (obstructed by hand, finger, or outside the frame)");
  }
  if (!findings.noseFound && !flagged.has("No nose, back view")) flagged.add("No nose visible");
  const reasons = QUALITY_REASONS.filter((reason) => flagged.has(reason));
  return { accepted: reasons.length === 0, reasons };
};

/**
 * How far the photo is from being rejected by the model: the largest probability-to-threshold
 * ratio over the reasons (below 1 means no reason fires). Lower is better; used to pick the best
 * frames of a video and to rank auto-capture candidates.
 */
export const qualityMargin = (
  probabilities: ArrayLike<number>,
  thresholds: ReasonThresholds = DEFAULT_REASON_THRESHOLDS,
): number => {
  let worst = 0;
  QUALITY_REASONS.forEach((reason, i) => {
    worst = Math.max(worst, (probabilities[i] ?? 1) / thresholds[reason]);
  });
  return worst;
};
