// Whether the photos of one session agree: one head photographed several times should measure the
// same up to the model's error, so a wider range means some photos are wrong (issue 22, item 11).
import type { Spread } from "./aggregate.ts";

/** The model's mean absolute error per photo on held-out images (model.json `metrics.ci_mae`, `metrics.cvai_mae`). */
export interface MeasurementError {
  readonly ci: number;
  readonly cvai: number;
}

/**
 * Used only when no model card is loaded (no model installed, or a stand-in model in tests): the
 * figures of head-contour 0.5.0's card. A loaded card always brings its own.
 */
export const FALLBACK_MEASUREMENT_ERROR: MeasurementError = { ci: 0.65, cvai: 0.88 };

/** The card's figures, or the fallback when the card has none. */
export const measurementErrorOf = (card: { readonly metrics?: { readonly ci_mae?: unknown; readonly cvai_mae?: unknown } }): MeasurementError => {
  const ci = card.metrics?.ci_mae;
  const cvai = card.metrics?.cvai_mae;
  return typeof ci === "number" && ci > 0 && typeof cvai === "number" && cvai > 0 ? { ci, cvai } : FALLBACK_MEASUREMENT_ERROR;
};

/**
 * A range wider than measurement error gives in 99 sessions of 100 is a disagreement: one in a
 * hundred honest sessions is sent to a reviewer's eye, and a wrong photo rarely hides in the median.
 */
export const AGREEMENT_CONFIDENCE = 0.99;

// Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7), enough for a threshold.
const erf = (x: number) => {
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return x < 0 ? -y : y;
};
const normalCdf = (x: number) => 0.5 * (1 + erf(x / Math.SQRT2));
const normalPdf = (x: number) => Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);

/** P(range of n standard normal draws <= w) = n ∫ φ(x) (Φ(x + w) − Φ(x))^(n−1) dx, by Simpson's rule. */
const rangeCdf = (w: number, n: number) => {
  const steps = 400;
  const lo = -8;
  const h = 16 / steps;
  let sum = 0;
  for (let i = 0; i <= steps; i++) {
    const x = lo + i * h;
    const f = normalPdf(x) * (normalCdf(x + w) - normalCdf(x)) ** (n - 1);
    sum += (i === 0 || i === steps ? 1 : i % 2 === 1 ? 4 : 2) * f;
  }
  return Math.min(1, (n * h * sum) / 3);
};

/** The range of n standard normal draws that is exceeded with probability 1 − p. */
export const normalRangeQuantile = (p: number, n: number) => {
  let lo = 0;
  let hi = 12;
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2;
    if (rangeCdf(mid, n) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
};

/**
 * The widest range of an index that `count` photos may show from measurement error alone. Per-photo
 * errors are taken as normal, whose standard deviation is the mean absolute error × √(π/2).
 */
export const spreadLimit = (meanAbsoluteError: number, count: number) =>
  count < 2 ? Number.POSITIVE_INFINITY : meanAbsoluteError * Math.sqrt(Math.PI / 2) * normalRangeQuantile(AGREEMENT_CONFIDENCE, count);

export interface IndexAgreement {
  readonly index: "CI" | "CVAI";
  readonly min: number;
  readonly max: number;
  readonly count: number;
  /** The widest range measurement error explains for this many photos. */
  readonly limit: number;
  readonly disagree: boolean;
}

const indexAgreement = (index: IndexAgreement["index"], spread: Spread | null, mae: number): IndexAgreement | null => {
  if (spread === null || spread.count < 2) return null;
  const limit = spreadLimit(mae, spread.count);
  return { index, min: spread.min, max: spread.max, count: spread.count, limit, disagree: spread.max - spread.min > limit };
};

/** CI and CVAI of the counted photos checked against the model's error; empty with fewer than two photos. */
export const agreementOf = (figures: { readonly ci: Spread | null; readonly cvai: Spread | null }, error: MeasurementError): ReadonlyArray<IndexAgreement> =>
  [indexAgreement("CI", figures.ci, error.ci), indexAgreement("CVAI", figures.cvai, error.cvai)].filter((a): a is IndexAgreement => a !== null);

/** True when any index's photos range wider than measurement error explains. */
export const photosDisagree = (agreement: ReadonlyArray<IndexAgreement>) => agreement.some((a) => a.disagree);

/** "CVAI ranges from 0.3 to 11.4 over 6 photos (measurement error explains up to 4.9)": one wording for the console and the PDF. */
export const describeDisagreement = (a: IndexAgreement) =>
  `${a.index} ranges from ${a.min.toFixed(1)} to ${a.max.toFixed(1)} over ${a.count} photos (measurement error explains up to ${a.limit.toFixed(1)})`;
