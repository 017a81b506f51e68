// The quality verdict: accept or reject a photo, with the reasons named as in the quiz.

/** The eight bad-image reasons in words, keyed (core's catalogue group `reasons`: Spanish beside the other messages). */
export const QUALITY_REASON_MESSAGES = {
  blurry: "Image is blurry",
  noNose: "No nose visible",
  incomplete: "Head contour is incomplete (obstructed by hand, finger, or outside the frame)",
  tilted: "Head is tilted (cheek asymmetry)",
  tooMuchFace: "Too much of the face is present (head tilted back)",
  hair: "Hair artifact present",
  tiltedSideways: "Head tilted to the left or right",
  backView: "No nose, back view",
} as const;

/** The eight bad-image reasons, in the order of the model's `quality` output. */
export const QUALITY_REASONS = [
  QUALITY_REASON_MESSAGES.blurry,
  QUALITY_REASON_MESSAGES.noNose,
  QUALITY_REASON_MESSAGES.incomplete,
  QUALITY_REASON_MESSAGES.tilted,
  QUALITY_REASON_MESSAGES.tooMuchFace,
  QUALITY_REASON_MESSAGES.hair,
  QUALITY_REASON_MESSAGES.tiltedSideways,
  QUALITY_REASON_MESSAGES.backView,
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

/**
 * The verdict's three outcomes: accept; retake (a reason the parent can fix, named); refer to the
 * reviewer (the model is unsure or contradicts itself: a person looks before the parent is asked again).
 */
export const VERDICT_OUTCOMES = ["accept", "retake", "refer"] as const;
export type VerdictOutcome = (typeof VERDICT_OUTCOMES)[number];

/** Why a photo is referred to the reviewer, in the reviewer's words. */
export const REFERRAL_CAUSES = {
  uncertain: "The quality check is unsure (a probability near its threshold)",
  viewsDisagree: "The turned views of the photo disagree",
  noseContradicts: "A clear nose contradicts a no-nose reason",
} as const;
export type ReferralCause = (typeof REFERRAL_CAUSES)[keyof typeof REFERRAL_CAUSES];

/**
 * The middle band, as multiples of each reason's threshold: a probability from `from` x threshold
 * up to `to` x threshold is neither a clear pass nor a clear fail (0.45 to 0.65 at threshold 0.5).
 */
export const UNCERTAIN_BAND = { from: 0.9, to: 1.3 } as const;
/** A nose heatmap peak at least this probable is a nose, whatever the quality head says. */
export const CONFIDENT_NOSE = 0.8;

/** What the geometry saw, independent of the model's own quality head. */
export interface GeometricFindings {
  readonly headFound: boolean;
  /** The head region reaches the edge of the photo, so part of it may be outside. */
  readonly headTouchesFrame: boolean;
  /** Something bites into the outline (a hand, a finger): see solidity. */
  readonly headObstructed?: boolean;
  readonly noseFound: boolean;
  /** The nose heatmap's peak probability where the nose was found (for the consistency rule). */
  readonly noseConfidence?: number | null;
  /** The quality probabilities of each turned view of the close-up, when several were looked at. */
  readonly viewProbabilities?: ReadonlyArray<ArrayLike<number>> | null;
}

export interface Verdict {
  readonly outcome: VerdictOutcome;
  /** outcome === "accept". */
  readonly accepted: boolean;
  /** The reasons found (model at threshold, geometry), in the order of QUALITY_REASONS, each at most once. */
  readonly reasons: QualityReason[];
  /** Why the photo is referred; empty unless outcome === "refer". */
  readonly doubts: ReferralCause[];
}

const NO_NOSE_REASONS: readonly QualityReason[] = ["No nose visible", "No nose, back view"];

/**
 * Retake when the geometry finds the head cut, covered or missing (plain facts the parent can fix),
 * or when the model names a reason clearly. Refer when the model is unsure (its deciding
 * probability in UNCERTAIN_BAND), when the close-up's views disagree about a reason, or when a
 * confident nose contradicts a no-nose reason. Accept otherwise. A missing nose already explained by
 * "No nose, back view" is not reported twice.
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
  const clear = new Set<QualityReason>();
  let unsure = false;
  QUALITY_REASONS.forEach((reason, i) => {
    const ratio = probabilities[i]! / thresholds[reason];
    if (ratio >= 1) flagged.add(reason);
    if (ratio >= UNCERTAIN_BAND.to) clear.add(reason);
    else if (ratio >= UNCERTAIN_BAND.from) unsure = true;
  });
  const incomplete = "Head contour is incomplete (obstructed by hand, finger, or outside the frame)";
  const geometric = !findings.headFound || findings.headTouchesFrame || findings.headObstructed === true;
  if (geometric) flagged.add(incomplete);
  if (!findings.noseFound && !flagged.has("No nose, back view")) flagged.add("No nose visible");
  const reasons = QUALITY_REASONS.filter((reason) => flagged.has(reason));

  const doubts: ReferralCause[] = [];
  const noseSure = (findings.noseConfidence ?? 0) >= CONFIDENT_NOSE;
  if (noseSure && NO_NOSE_REASONS.some((r) => flagged.has(r))) doubts.push(REFERRAL_CAUSES.noseContradicts);
  if (viewsDisagree(findings.viewProbabilities, thresholds)) doubts.push(REFERRAL_CAUSES.viewsDisagree);
  // Unsure only matters where nothing is clear: one clear reason is enough for a retake.
  if (unsure && clear.size === 0) doubts.push(REFERRAL_CAUSES.uncertain);
  // A no-nose reason that a clear nose contradicts is no clear reason.
  const contradicted = doubts.includes(REFERRAL_CAUSES.noseContradicts);
  const clearReasons = [...clear].filter((r) => !(contradicted && NO_NOSE_REASONS.includes(r)));
  const outcome: VerdictOutcome = geometric
    ? "retake"
    : doubts.length > 0 && clearReasons.length === 0
      ? "refer"
      : reasons.length > 0
        ? "retake"
        : "accept";
  return { outcome, accepted: outcome === "accept", reasons, doubts: outcome === "refer" ? doubts : [] };
};

/**
 * Half the views say a reason clearly and the other half clearly not: the photo is ambiguous. (One
 * view out of four flagging a reason the others clear is ordinary noise: on the first renderer's
 * held-out set that rule alone referred 7 % of the good photos.)
 */
const viewsDisagree = (views: ReadonlyArray<ArrayLike<number>> | null | undefined, thresholds: ReasonThresholds): boolean => {
  if (!views || views.length < 2) return false;
  const half = views.length / 2;
  return QUALITY_REASONS.some((reason, i) => {
    const ratios = views.map((v) => v[i]! / thresholds[reason]);
    return ratios.filter((r) => r >= UNCERTAIN_BAND.to).length >= half && ratios.filter((r) => r < UNCERTAIN_BAND.from).length >= half;
  });
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

/** What live capture (portal and kiosk) says about the frame it just judged. */
export const FRAME_MESSAGES = {
  good: "Good frame: hold still",
  unsure: "Not sure about this frame: hold still",
  noHead: "No head found",
} as const;

/** `words` puts each English message (a frame message, a reason) in the screen's language; English as it is by default. */
export const frameMessage = (
  a: { readonly accepted: boolean; readonly verdict: VerdictOutcome; readonly reasons: readonly QualityReason[] },
  words: (english: string) => string = (english) => english,
): string =>
  a.accepted ? words(FRAME_MESSAGES.good) : a.reasons.length > 0 ? a.reasons.map(words).join("; ") : words(a.verdict === "refer" ? FRAME_MESSAGES.unsure : FRAME_MESSAGES.noHead);
