/**
 * The product owner's figures for one family of rendered photos (docs/adr/0152): for good photos the shares
 * accepted, told to retake and referred; for bad photos the share accepted; on accepted good photos CI and
 * CVAI MAE and the share off by more than 3; the CVA scale's median ratio on accepted good photos wearing
 * a cap with the kit's sticker. And the ship rule: no figure worse than the shipped model's (issue 45), with
 * ADR 0133's photo-for-photo conditions on render.py.
 */
import { readFileSync } from "node:fs";
import type { GeometricFindings } from "../../core/src/measurement/index.ts";
import { underNoseRule, type NoseTruth } from "./nose-rule.ts";

/** What a photo's verdict is judged from, kept per photo (--rows). */
export interface VerdictRow {
  family: string;
  id: string;
  reasons: number[];
  quality: number[];
  findings: GeometricFindings;
  ci: number | null;
  cvai: number | null;
  ciTrue: number;
  cvaiTrue: number;
  capWithKitSticker: boolean;
  lengthRatio: number | null;
}

/** Rows as families.bench.ts --rows writes them, one JSON object a line. */
export const readVerdictRows = (file: string): VerdictRow[] =>
  readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as VerdictRow);

export type Outcome = "accept" | "retake" | "refer";

/** One photo as judged: its truth (after any relabelling), the verdict and what was measured. */
export interface JudgedPhoto {
  readonly id: string;
  /** The truth's reasons (indices into QUALITY_REASONS); empty for a good photo. */
  readonly reasons: readonly number[];
  readonly verdict: Outcome;
  readonly ci: number | null;
  readonly cvai: number | null;
  readonly ciTrue: number;
  readonly cvaiTrue: number;
  /** A cap with the kit's 30 mm sticker. */
  readonly capWithKitSticker: boolean;
  /** The section's length in mm as measured over the true one; null where none was measured. */
  readonly lengthRatio: number | null;
}

export interface FamilyFigures {
  readonly good: number;
  readonly accepted: number;
  readonly retake: number;
  readonly refer: number;
  readonly bad: number;
  readonly badAccepted: number;
  readonly acceptedGood: number;
  readonly ciMae: number | null;
  readonly cvaiMae: number | null;
  /** Accepted good photos whose CI or CVAI is off by more than 3 points. */
  readonly offBy3: number;
  readonly cvaScaleMedian: number | null;
  readonly cvaScaleN: number;
}

const NO_NOSE = 1;

/** render2's truth relabelled by the product owner's nose rule (ADR 0152): a good photo under it is a "No nose visible" photo. */
export const relabelled = (reasons: readonly number[], truth: NoseTruth): number[] =>
  reasons.length === 0 && underNoseRule(truth) === true ? [NO_NOSE] : [...reasons];

export const median = (xs: readonly number[]): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

export const familyFigures = (photos: readonly JudgedPhoto[]): FamilyFigures => {
  const good = photos.filter((p) => p.reasons.length === 0);
  const bad = photos.filter((p) => p.reasons.length > 0);
  const acc = good.filter((p) => p.verdict === "accept" && p.ci !== null && p.cvai !== null);
  const scale = acc.filter((p) => p.capWithKitSticker && p.lengthRatio !== null).map((p) => p.lengthRatio!);
  return {
    good: good.length,
    accepted: good.filter((p) => p.verdict === "accept").length,
    retake: good.filter((p) => p.verdict === "retake").length,
    refer: good.filter((p) => p.verdict === "refer").length,
    bad: bad.length,
    badAccepted: bad.filter((p) => p.verdict === "accept").length,
    acceptedGood: acc.length,
    ciMae: mean(acc.map((p) => Math.abs(p.ci! - p.ciTrue))),
    cvaiMae: mean(acc.map((p) => Math.abs(p.cvai! - p.cvaiTrue))),
    offBy3: acc.filter((p) => Math.abs(p.ci! - p.ciTrue) > 3 || Math.abs(p.cvai! - p.cvaiTrue) > 3).length,
    cvaScaleMedian: median(scale),
    cvaScaleN: scale.length,
  };
};

const pct = (k: number, n: number): string => (n === 0 ? "-" : `${((100 * k) / n).toFixed(1)} %`);
const num = (x: number | null, d = 2): string => (x === null ? "-" : x.toFixed(d));

/** One line per family, in the product owner's terms. */
export const FIGURES_HEADER =
  "family                        good  accepted   retake    refer |  bad  accepted | CI MAE CVAI MAE off>3 (n acc) | CVA scale (n)";
export const figuresLine = (label: string, f: FamilyFigures): string =>
  `${label.padEnd(28)} ${String(f.good).padStart(5)} ${pct(f.accepted, f.good).padStart(9)} ${pct(f.retake, f.good).padStart(8)} ${pct(f.refer, f.good).padStart(8)} |` +
  ` ${String(f.bad).padStart(4)} ${pct(f.badAccepted, f.bad).padStart(9)} |` +
  ` ${num(f.ciMae).padStart(6)} ${num(f.cvaiMae).padStart(8)} ${pct(f.offBy3, f.acceptedGood).padStart(6)} (${f.acceptedGood}) |` +
  ` ${num(f.cvaScaleMedian, 3)} (${f.cvaScaleN})`;

/** Issue 45's ship rule on render2 and render3: no figure worse than the shipped model's. Returns the figures that are worse. */
export const worseFigures = (candidate: FamilyFigures, shipped: FamilyFigures, withMae = true): string[] => {
  const worse: string[] = [];
  if (candidate.accepted / candidate.good < shipped.accepted / shipped.good) worse.push("good photos accepted");
  if (candidate.retake / candidate.good > shipped.retake / shipped.good) worse.push("good photos told to retake");
  if (candidate.badAccepted / candidate.bad > shipped.badAccepted / shipped.bad) worse.push("bad photos accepted");
  if (withMae && (candidate.ciMae ?? 0) > (shipped.ciMae ?? 0)) worse.push("CI MAE on accepted good photos");
  if (withMae && (candidate.cvaiMae ?? 0) > (shipped.cvaiMae ?? 0)) worse.push("CVAI MAE on accepted good photos");
  return worse;
};

/**
 * ADR 0133 (in force since issue 45), render.py's "no worse than 0.5.0", photo for photo on the same set:
 * 1. good photos accepted >= 0.5.0's; 2. on the good photos both accept, CI and CVAI MAE each <= 0.5.0's + 0.01;
 * 3. on the good photos only the candidate accepts, CI and CVAI MAE each <= 1.0 (or none);
 * 4. every bad-image reason held back >= 0.5.0's count - 2, bad photos accepted <= 0.5.0's + 2.
 * Returns the conditions that fail.
 */
export const adr133Failures = (candidate: readonly JudgedPhoto[], shipped: readonly JudgedPhoto[], reasonCount = 8): string[] => {
  const byId = new Map(shipped.map((p) => [p.id, p]));
  const fails: string[] = [];
  const good = candidate.filter((p) => p.reasons.length === 0);
  const okGood = (p: JudgedPhoto | undefined): p is JudgedPhoto => p !== undefined && p.verdict === "accept" && p.ci !== null && p.cvai !== null;
  const candAcc = good.filter(okGood).length;
  const shipAcc = good.filter((p) => okGood(byId.get(p.id))).length;
  if (candAcc < shipAcc) fails.push(`1: good accepted ${candAcc} < ${shipAcc}`);
  const both = good.filter((p) => okGood(p) && okGood(byId.get(p.id)));
  const maeOf = (ps: JudgedPhoto[], key: "ci" | "cvai") => mean(ps.map((p) => Math.abs(p[key]! - p[key === "ci" ? "ciTrue" : "cvaiTrue"])));
  for (const key of ["ci", "cvai"] as const) {
    const c = maeOf(both, key);
    const s = mean(both.map((p) => Math.abs(byId.get(p.id)![key]! - p[key === "ci" ? "ciTrue" : "cvaiTrue"])));
    if (c !== null && s !== null && c > s + 0.01) fails.push(`2: ${key} MAE on photos both accept ${c.toFixed(3)} > ${s.toFixed(3)} + 0.01`);
    const extra = good.filter((p) => okGood(p) && !okGood(byId.get(p.id)));
    const e = maeOf(extra, key);
    if (e !== null && e > 1.0) fails.push(`3: ${key} MAE on photos only the candidate accepts ${e.toFixed(2)} > 1.0`);
  }
  const bad = candidate.filter((p) => p.reasons.length > 0);
  for (let r = 0; r < reasonCount; r++) {
    const having = bad.filter((p) => p.reasons.includes(r));
    const c = having.filter((p) => p.verdict !== "accept").length;
    const s = having.filter((p) => byId.get(p.id)?.verdict !== "accept").length;
    if (c < s - 2) fails.push(`4: reason ${r} held back ${c} < ${s} - 2`);
  }
  const cBad = bad.filter((p) => p.verdict === "accept").length;
  const sBad = bad.filter((p) => byId.get(p.id)?.verdict === "accept").length;
  if (cBad > sBad + 2) fails.push(`4: bad accepted ${cBad} > ${sBad} + 2`);
  return fails;
};

/**
 * Issue 45's ship rule for one family, the candidate's photos against the shipped ones (the same photos, as
 * judged): no figure worse; on render.py ADR 0133's conditions instead of the MAE figures. Returns what fails.
 */
export const shipRuleFailures = (family: string, candidate: readonly JudgedPhoto[], shipped: readonly JudgedPhoto[]): string[] => {
  const fc = familyFigures(candidate);
  const fs = familyFigures(shipped);
  return family === "renderpy" ? [...worseFigures(fc, fs, false), ...adr133Failures(candidate, shipped)] : worseFigures(fc, fs);
};
