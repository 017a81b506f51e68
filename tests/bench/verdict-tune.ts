// Re-judges the rows families.bench.ts wrote (--rows) under a grid of verdict policies, without running the
// model again: for each policy, every family's figures in the product owner's terms and the figures worse
// than the shipped policy's (issue 45's ship rule; ADR 0133 on render.py). Run it on TUNING sets only
// (docs/adr/0152); the held-out sets are read once, by families.bench.ts, for the policy chosen here.
//   pnpm tsx tests/bench/verdict-tune.ts ROWS.jsonl [ROWS2.jsonl ...] [--truth family=DIR ...] [--policy calibrated]
// (--policy: only that policy against the shipped one, e.g. to read held-out rows once for the policy chosen)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  CALIBRATED_VERDICT_POLICY,
  DEFAULT_REASON_THRESHOLDS,
  judgePhoto,
  QUALITY_REASONS,
  SHIPPED_VERDICT_POLICY,
  type QualityReason,
  type VerdictPolicy,
} from "../../core/src/measurement/index.ts";
import { adr133Failures, familyFigures, FIGURES_HEADER, figuresLine, relabelled, worseFigures, type JudgedPhoto } from "./po-figures.ts";
import type { NoseTruth } from "./nose-rule.ts";
import type { VerdictRow } from "./families.bench.ts";

const { positionals, values } = parseArgs({ allowPositionals: true, options: { truth: { type: "string", multiple: true }, policy: { type: "string" } } });
const rows: VerdictRow[] = positionals.flatMap((f) => readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as VerdictRow));
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
const judge = (rs: VerdictRow[], policy: VerdictPolicy): JudgedPhoto[] =>
  rs.map((r) => ({ ...r, reasons: labelOf(r), verdict: judgePhoto(r.quality, r.findings, DEFAULT_REASON_THRESHOLDS, policy).outcome }));

const every = (ratio: number): Record<QualityReason, number> => Object.fromEntries(QUALITY_REASONS.map((q) => [q, ratio])) as Record<QualityReason, number>;
const grid: [string, VerdictPolicy][] = [["shipped", SHIPPED_VERDICT_POLICY]];
for (const ratio of [1.3, 1.5, 1.7, 1.9]) {
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
if (values.policy) {
  const named: Record<string, VerdictPolicy> = { calibrated: CALIBRATED_VERDICT_POLICY };
  if (!named[values.policy]) throw new Error(`unknown policy ${values.policy}`);
  grid.splice(1, grid.length - 1, [values.policy, named[values.policy]!]);
}
const families = [...new Set(rows.map((r) => r.family))];
const shippedBy = new Map(families.map((f) => [f, judge(rows.filter((r) => r.family === f), SHIPPED_VERDICT_POLICY)]));
for (const [name, policy] of grid) {
  process.stdout.write(`\n${name}\n${FIGURES_HEADER}\n`);
  const worseAll: string[] = [];
  for (const f of families) {
    const j = judge(rows.filter((r) => r.family === f), policy);
    const fig = familyFigures(j);
    const ship = familyFigures(shippedBy.get(f)!);
    const worse = f === "renderpy" ? [...worseFigures(fig, ship, false), ...adr133Failures(j, shippedBy.get(f)!)] : worseFigures(fig, ship);
    worseAll.push(...worse.map((w) => `${f}: ${w}`));
    process.stdout.write(`${figuresLine(f, fig)}\n`);
  }
  process.stdout.write(`ship rule: ${worseAll.length === 0 ? "no figure worse" : worseAll.join("; ")}\n`);
}
