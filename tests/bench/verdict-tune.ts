// Re-judges the rows families.bench.ts wrote (--rows) under a grid of verdict policies, without running the
// model again: for each policy, every family's figures in the product owner's terms and the figures worse
// than the shipped policy's (issue 45's ship rule; ADR 0133 on render.py). Run it on TUNING sets only
// (docs/adr/0152); the held-out sets are read once, by families.bench.ts, for the policy chosen here.
//   pnpm tsx tests/bench/verdict-tune.ts ROWS.jsonl [ROWS2.jsonl ...] [--truth family=DIR ...] [--policy calibrated] [--fit OUT.json]
// (--policy: only that policy against the shipped one, e.g. to read held-out rows once for the policy chosen;
// --fit: the rule of models/head-contour/lab/2026-11-28-verdict-calibration-2.md, written before render3's
// tuning figures, applied to the rows: the chosen policy and its fallback written to OUT.json for
// families.bench.ts --policy-json)
// --shipped-rows FILE: the positional rows are a candidate model's; each policy is judged against the shipped
// model's rows on the same photos (shipped policy) instead of against the same rows. --thresholds 0.5,0.25,...:
// instead of the policy grid, every reason's threshold lowered together to each value, the retake level held at
// the shipped policy's probability, with and without the verdict fit's plausibility bounds (CI 61-109, nose 0.9-1.6).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  CALIBRATED_VERDICT_POLICY,
  DEFAULT_REASON_THRESHOLDS,
  judgePhoto,
  QUALITY_REASONS,
  SHIPPED_VERDICT_POLICY,
  type QualityReason,
  type ReasonThresholds,
  type VerdictPolicy,
} from "../../core/src/measurement/index.ts";
import { familyFigures, FIGURES_HEADER, figuresLine, readVerdictRows, relabelled, shipRuleFailures, type JudgedPhoto, type VerdictRow } from "./po-figures.ts";
import type { NoseTruth } from "./nose-rule.ts";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    truth: { type: "string", multiple: true }, policy: { type: "string" }, fit: { type: "string" },
    "shipped-rows": { type: "string" }, thresholds: { type: "string" },
  },
});
const rows: VerdictRow[] = positionals.flatMap(readVerdictRows);
const shippedRows: VerdictRow[] = values["shipped-rows"] ? readVerdictRows(values["shipped-rows"]) : rows;
// render2's nose counts, for the relabelling
const noseTruth = new Map<string, NoseTruth>();
for (const spec of values.truth ?? []) {
  const [family, dir] = spec.split("=") as [string, string];
  const t = JSON.parse(readFileSync(join(dir, "truth.json"), "utf8")) as { items: (NoseTruth & { image: string })[] };
  for (const it of t.items) noseTruth.set(`${family}/${it.image}`, it);
}
const labelOf = (r: VerdictRow): number[] => {
  const t = noseTruth.get(`${r.family}/${r.id}`);
  return r.family === "render2" && t ? relabelled(r.reasons, t) : r.reasons;
};
const judge = (rs: VerdictRow[], policy: VerdictPolicy, thresholds: ReasonThresholds = DEFAULT_REASON_THRESHOLDS): JudgedPhoto[] =>
  rs.map((r) => ({ ...r, reasons: labelOf(r), verdict: judgePhoto(r.quality, r.findings, thresholds, policy).outcome }));

const every = (ratio: number): Record<QualityReason, number> => Object.fromEntries(QUALITY_REASONS.map((q) => [q, ratio])) as Record<QualityReason, number>;
const grid: [string, VerdictPolicy, ReasonThresholds?][] = [["shipped", SHIPPED_VERDICT_POLICY]];
// 1.96 and 1.99 (0.98 and 0.995 at threshold 0.5) added for the second fit: no ratio up to 1.9 brought
// render2's retakes to 5 % (lab/2026-11-28-verdict-calibration.md).
const RATIOS = [1.3, 1.5, 1.7, 1.9, 1.96, 1.99] as const;
for (const ratio of RATIOS) {
  for (const missingNoseRefers of [false, true]) {
    for (const obstructedRefers of [false, true]) {
      // the axis test off (180 degrees) as well: the whole photo's own nose is often elsewhere on good photos
      const bounds = [
        [0.8, 1.8, 30], [0.9, 1.6, 20], [0.8, 1.8, 180], [0.9, 1.6, 180],
      ] as const;
      for (const plaus of [null, ...bounds.map(([lo, hi, deg]) => ({ ci: [65, 105] as const, noseAlong: [lo, hi] as const, maxAxisDisagreementDeg: deg }))]) {
        const name = `retake>=${ratio}x nose:${missingNoseRefers ? "refer" : "retake"} bite:${obstructedRefers ? "refer" : "retake"} plaus:${plaus ? `${plaus.noseAlong.join("-")}/${plaus.maxAxisDisagreementDeg}deg` : "none"}`;
        grid.push([name, { retakeRatio: every(ratio), missingNoseRefers, obstructedRefers, plausible: plaus }]);
      }
    }
  }
}
if (values.thresholds) {
  grid.splice(1);
  const fitBounds = { ci: [61, 109] as const, noseAlong: [0.9, 1.6] as const, maxAxisDisagreementDeg: 180 };
  for (const t of values.thresholds.split(",").map(Number)) {
    for (const plausible of [null, fitBounds]) {
      const retakeRatio = Object.fromEntries(QUALITY_REASONS.map((q) => [q, (SHIPPED_VERDICT_POLICY.retakeRatio[q] * DEFAULT_REASON_THRESHOLDS[q]) / t])) as Record<QualityReason, number>;
      const thresholds = Object.fromEntries(QUALITY_REASONS.map((q) => [q, t])) as ReasonThresholds;
      grid.push([`thresholds ${t} plaus:${plausible ? "61-109/0.9-1.6" : "none"}`, { ...SHIPPED_VERDICT_POLICY, retakeRatio, plausible }, thresholds]);
    }
  }
}
if (values.policy) {
  const named: Record<string, VerdictPolicy> = { calibrated: CALIBRATED_VERDICT_POLICY };
  if (!named[values.policy]) throw new Error(`unknown policy ${values.policy}`);
  grid.splice(1, grid.length - 1, [values.policy, named[values.policy]!]);
}
const families = [...new Set(rows.map((r) => r.family))];
if (values.fit) {
  writeFileSync(values.fit, JSON.stringify(fitPolicy(), null, 1) + "\n");
  process.exit(0);
}
const shippedBy = new Map(families.map((f) => [f, judge(shippedRows.filter((r) => r.family === f), SHIPPED_VERDICT_POLICY)]));
for (const [name, policy, thresholds] of grid) {
  process.stdout.write(`\n${name}\n${FIGURES_HEADER}\n`);
  const worseAll: string[] = [];
  for (const f of families) {
    const j = judge(rows.filter((r) => r.family === f), policy, thresholds);
    const fig = familyFigures(j);
    const worse = shipRuleFailures(f, j, shippedBy.get(f)!);
    worseAll.push(...worse.map((w) => `${f}: ${w}`));
    process.stdout.write(`${figuresLine(f, fig)}\n`);
  }
  process.stdout.write(`ship rule: ${worseAll.length === 0 ? "no figure worse" : worseAll.join("; ")}\n`);
}

/**
 * The second fit's rule (lab/2026-11-28-verdict-calibration-2.md, written before render3's tuning figures were
 * seen), applied mechanically to the tuning rows: a missing nose and a bitten outline refer unless named clearly;
 * the smallest retake ratio that tells <= 5 % of good photos to retake on every family (else the largest); CI
 * bounds from the tuning truth (no tighter than 65-105, 3 points beyond the truest extremes); the tightest nose
 * band and axis test that refer no accepted good photo measured within 3 points. The fallback is the same
 * policy without plausibility bounds.
 */
function fitPolicy(): Record<string, unknown> {
  const log = (s: string): void => void process.stdout.write(`${s}\n`);
  const byFamily = families.map((f) => rows.filter((r) => r.family === f));
  const base = { missingNoseRefers: true, obstructedRefers: true } as const;
  const retakeShare = (policy: VerdictPolicy): number[] =>
    byFamily.map((rs) => {
      const fig = familyFigures(judge(rs, policy));
      return fig.retake / fig.good;
    });
  let ratio: number = RATIOS[RATIOS.length - 1]!;
  for (const r of RATIOS) {
    const shares = retakeShare({ ...base, retakeRatio: every(r), plausible: null });
    log(`ratio ${r}: good told to retake ${families.map((f, i) => `${f} ${(100 * shares[i]!).toFixed(1)} %`).join(", ")}`);
    if (shares.every((s) => s <= 0.05)) {
      ratio = r;
      break;
    }
  }
  log(`retake ratio: ${ratio}`);
  const goodTrue = rows.filter((r) => labelOf(r).length === 0).map((r) => r.ciTrue);
  const ci: [number, number] = [Math.min(65, Math.floor(Math.min(...goodTrue) - 3)), Math.max(105, Math.ceil(Math.max(...goodTrue) + 3))];
  log(`true CI of good tuning photos: ${Math.min(...goodTrue).toFixed(1)}-${Math.max(...goodTrue).toFixed(1)} (n=${goodTrue.length}); CI bounds ${ci.join("-")}`);
  const fallback: VerdictPolicy = { ...base, retakeRatio: every(ratio), plausible: null };
  // a bound setting qualifies if it refers no accepted good tuning photo measured within 3 points in CI and CVAI
  const qualifies = (plausible: VerdictPolicy["plausible"]): boolean => {
    const policy: VerdictPolicy = { ...fallback, plausible };
    const lost = rows.filter((r) => {
      if (labelOf(r).length > 0 || r.ci === null || r.cvai === null) return false;
      if (Math.abs(r.ci - r.ciTrue) > 3 || Math.abs(r.cvai - r.cvaiTrue) > 3) return false;
      const before = judgePhoto(r.quality, r.findings, DEFAULT_REASON_THRESHOLDS, fallback).outcome;
      const after = judgePhoto(r.quality, r.findings, DEFAULT_REASON_THRESHOLDS, policy).outcome;
      return before === "accept" && after !== "accept";
    });
    log(`  ${JSON.stringify(plausible)}: refers ${lost.length} accepted good photos measured within 3 points${lost.length ? ` (${lost.slice(0, 6).map((r) => `${r.family}/${r.id}`).join(", ")})` : ""}`);
    return lost.length === 0;
  };
  const settings: VerdictPolicy["plausible"][] = [
    { ci, noseAlong: [0.9, 1.6], maxAxisDisagreementDeg: 20 },
    { ci, noseAlong: [0.8, 1.8], maxAxisDisagreementDeg: 30 },
    { ci, noseAlong: [0.9, 1.6], maxAxisDisagreementDeg: 180 },
    { ci, noseAlong: [0.8, 1.8], maxAxisDisagreementDeg: 180 },
    { ci, noseAlong: [-1e6, 1e6], maxAxisDisagreementDeg: 180 },
  ];
  const plausible = settings.find(qualifies) ?? null;
  const chosen: VerdictPolicy = { ...fallback, plausible };
  for (const [name, policy] of [["chosen", chosen], ["fallback", fallback]] as const) {
    log(`\n${name}: ${JSON.stringify({ ...policy, retakeRatio: ratio })}\n${FIGURES_HEADER}`);
    for (const [i, f] of families.entries()) log(figuresLine(f, familyFigures(judge(byFamily[i]!, policy))));
  }
  return { chosen: { ...chosen, retakeRatio: ratio }, fallback: { ...fallback, retakeRatio: ratio } };
}
