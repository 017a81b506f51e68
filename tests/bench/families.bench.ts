// Every family's figures in the product owner's terms (docs/adr/0152): the shipped model through the shipped
// TypeScript pipeline on render.py's, render2's (relabelled by the nose rule, and as rendered) and render3's
// sets, with seconds per render3 image; and, with --policy, a verdict policy judged against the shipped one
// by issue 45's ship rule (ADR 0133 on render.py).
//   pnpm tsx tests/bench/families.bench.ts [--renderpy DIR] [--render2 DIR] [--render3 DIR] [--policy calibrated | --policy-json FIT.json:chosen] [--rows out.jsonl] [--json out.json]
//   CROWN_MODEL=candidate.onnx pnpm tsx tests/bench/families.bench.ts ... --shipped-rows shipped.jsonl
// --shipped-rows judges the model in use (a candidate, CROWN_MODEL) against the shipped model's rows, written
// by an earlier run with --rows on the same sets: both under the shipped verdict policy, by the same ship rule.
// Sets: models/head-contour/data.py eval (render.py), render2/build_set.py, render3/build.py set (ADR 0152 names
// the held-out and tuning seeds); a set missing under models/head-contour/data is unpacked from
// models/head-contour/sets/ when it is archived there. Rows (--rows) hold what the verdict is judged from, so verdict-tune.ts can
// re-judge a tuning set under other policies without running the model again.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  analyzePhoto,
  CALIBRATED_VERDICT_POLICY,
  DEFAULT_REASON_THRESHOLDS,
  judgePhoto,
  QUALITY_REASONS,
  SHIPPED_VERDICT_POLICY,
  type PhotoAnalysis,
  type VerdictPolicy,
} from "../../core/src/measurement/index.ts";
import { analyzeOptionsFrom } from "../../adapters/inference/src/card.ts";
import { decodeImage, loadHeadContourModel } from "../../adapters/inference/src/node.ts";
import { modelPath } from "../../adapters/inference/src/testing.ts";
import { readTruth, type TruthItem } from "./truth.ts";
import { familyFigures, FIGURES_HEADER, figuresLine, median, readVerdictRows, relabelled, shipRuleFailures, type JudgedPhoto, type VerdictRow } from "./po-figures.ts";

const { values } = parseArgs({
  options: {
    renderpy: { type: "string" },
    render2: { type: "string" },
    render3: { type: "string" },
    policy: { type: "string" },
    "policy-json": { type: "string" },
    rows: { type: "string" },
    "shipped-rows": { type: "string" },
    json: { type: "string" },
    limit: { type: "string" },
  },
});
const families = (["renderpy", "render2", "render3"] as const).filter((f) => values[f]);
if (families.length === 0) {
  process.stderr.write("Usage: pnpm tsx tests/bench/families.bench.ts [--renderpy DIR] [--render2 DIR] [--render3 DIR] [--policy calibrated] [--rows out.jsonl]\n");
  process.exit(1);
}
const policies: Record<string, VerdictPolicy> = { calibrated: CALIBRATED_VERDICT_POLICY };
// --policy-json FILE:KEY reads a policy verdict-tune.ts --fit wrote (its retake ratio one number for every reason)
const fromJson = (spec: string): VerdictPolicy => {
  const [file, key] = spec.split(":") as [string, string];
  const p = (JSON.parse(readFileSync(file, "utf8")) as Record<string, Omit<VerdictPolicy, "retakeRatio"> & { retakeRatio: number }>)[key];
  if (!p) throw new Error(`no policy ${key} in ${file}`);
  return { ...p, retakeRatio: Object.fromEntries(QUALITY_REASONS.map((q) => [q, p.retakeRatio])) as VerdictPolicy["retakeRatio"] };
};
if (values["policy-json"]) values.policy = values["policy-json"].split(":")[1];
const candidate = values["policy-json"] ? fromJson(values["policy-json"]) : values.policy ? policies[values.policy] : undefined;
if (values.policy && !candidate) throw new Error(`unknown policy ${values.policy}`);

// The shipped model's rows, per family, when a candidate model is judged against them.
const shippedRows = values["shipped-rows"] ? readVerdictRows(values["shipped-rows"]) : undefined;

const SETS_PY = new URL("../../models/head-contour/sets.py", import.meta.url).pathname;
const model = await loadHeadContourModel(modelPath(), { threads: 1 });
// The maps and findings do not depend on the policy: measure once, judge under each policy.
const options = { ...analyzeOptionsFrom(model.card), verdictPolicy: SHIPPED_VERDICT_POLICY, allFindings: true };
const out = (s: string): void => void process.stdout.write(`${s}\n`);
const allRows: VerdictRow[] = [];
const summary: Record<string, unknown> = { model: model.card.version };

const lengthRatio = (item: TruthItem, a: PhotoAnalysis, kitMm: number): number | null => {
  const mm = item.sticker === null ? null : Array.isArray(item.sticker) ? kitMm : item.sticker.mm;
  return mm === kitMm && a.cva_mm !== null && a.length !== null && item.length_mm && a.diagonals && a.diagonals.a - a.diagonals.b > 0
    ? (a.length * (a.cva_mm / (a.diagonals.a - a.diagonals.b))) / item.length_mm
    : null;
};

const judged = (rows: readonly VerdictRow[], policy: VerdictPolicy, relabel: (r: VerdictRow) => number[]): JudgedPhoto[] =>
  rows.map((r) => ({
    id: r.id,
    reasons: relabel(r),
    verdict: judgePhoto(r.quality, r.findings, DEFAULT_REASON_THRESHOLDS, policy).outcome,
    ci: r.ci,
    cvai: r.cvai,
    ciTrue: r.ciTrue,
    cvaiTrue: r.cvaiTrue,
    capWithKitSticker: r.capWithKitSticker,
    lengthRatio: r.lengthRatio,
  }));

out(`head-contour ${model.card.version}, the shipped pipeline (four views); verdict policies: shipped${candidate ? `, ${values.policy}` : ""}`);
out(FIGURES_HEADER);
for (const family of families) {
  const dir = values[family]!;
  // A judged set the data folder lacks comes from its committed archive (models/head-contour/sets/README.md).
  if (!existsSync(join(dir, "truth.json"))) execFileSync("/usr/bin/python3", [SETS_PY, "unpack", dir], { stdio: "inherit" });
  const truth = readTruth(dir, values.limit);
  const items = truth.items;
  const rows: VerdictRow[] = [];
  const byId = new Map<string, TruthItem>();
  for (const item of items) {
    const a = await analyzePhoto(await decodeImage(readFileSync(join(dir, item.image))), model, options);
    byId.set(item.image, item);
    rows.push({
      family, id: item.image, reasons: item.reasons, quality: a.quality.map((q) => Number(q.toFixed(5))), findings: a.findings,
      ci: a.ci, cvai: a.cvai, ciTrue: item.ci, cvaiTrue: item.cvai,
      capWithKitSticker: item.cap && (item.sticker === null ? false : Array.isArray(item.sticker) ? true : item.sticker.mm === model.card.sticker_diameter_mm),
      lengthRatio: lengthRatio(item, a, model.card.sticker_diameter_mm),
    });
  }
  allRows.push(...rows);
  const asRendered = (r: VerdictRow): number[] => r.reasons;
  const relabel = (r: VerdictRow): number[] => relabelled(r.reasons, byId.get(r.id)!);
  const labellings: [string, (r: VerdictRow) => number[]][] =
    family === "render2" ? [["relabelled", relabel], ["as rendered", asRendered]] : [["", asRendered]];
  for (const [name, label] of labellings) {
    const tag = `${family}${name ? ` (${name})` : ""} ${truth.seed}`;
    const shipped = judged(rows, SHIPPED_VERDICT_POLICY, label);
    const fs = familyFigures(shipped);
    out(figuresLine(`${tag}`, fs));
    summary[`${tag} shipped`] = fs;
    if (shippedRows) {
      const base = shippedRows.filter((r) => r.family === family);
      const ids = new Set(rows.map((r) => r.id));
      if (base.length !== rows.length || !base.every((r) => ids.has(r.id))) throw new Error(`--shipped-rows: ${family} holds other photos than ${dir}`);
      const baseline = judged(base, SHIPPED_VERDICT_POLICY, label);
      const fb = familyFigures(baseline);
      out(figuresLine("  shipped model", fb));
      summary[`${tag} shipped model`] = fb;
      const worse = shipRuleFailures(family, shipped, baseline);
      out(`  ship rule (${model.card.version} against the shipped model): ${worse.length === 0 ? "no figure worse" : `worse: ${worse.join("; ")}`}`);
      summary[`${tag} against shipped model worse`] = worse;
    }
    if (candidate) {
      const cand = judged(rows, candidate, label);
      const fc = familyFigures(cand);
      out(figuresLine(`  ${values.policy}`, fc));
      summary[`${tag} ${values.policy}`] = fc;
      const worse = shipRuleFailures(family, cand, shipped);
      out(`  ship rule: ${worse.length === 0 ? "no figure worse" : `worse: ${worse.join("; ")}`}`);
      summary[`${tag} ${values.policy} worse`] = worse;
    }
  }
  if (family === "render3") {
    const secs = items.map((it) => it.render_seconds).filter((s): s is number => typeof s === "number");
    const m = median(secs);
    out(`  render3: Blender seconds per image (label passes + Cycles, niced, as rendered): median ${m === null ? "-" : m.toFixed(1)} (n=${secs.length})`);
    summary.render3_seconds_median = m;
  }
}
await model.close();
if (values.rows) writeFileSync(values.rows, allRows.map((r) => JSON.stringify(r)).join("\n") + "\n");
if (values.json) writeFileSync(values.json, JSON.stringify(summary, null, 1));
