// Why the geometry sends good photos back (issue 18): for each good photo of a held-out rendered set
// that the pipeline does not accept because no nose was found or the outline was cut / bitten into,
// what the close-up's nose heatmap holds near the true nose tip, and which outline check fired.
//   pnpm tsx tests/bench/geometry-failures.bench.ts DIR [--limit N] [--rows rows.json] [--presence P]
// DIR: a set with the true nose tip in truth.json (`nose`, photo pixels): render2/build_set.py or
// data.py eval. The nose map is read exactly as analyzePhoto reads it (the close-up, the card's views
// averaged as logits); a peak counts as "at the nose" within 6 % of the head's size of the true tip.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  analyzePhoto,
  cropAround,
  headCrop,
  insideOutline,
  polygonArea,
  letterbox,
  plausibleNose,
  readOutputs,
  sigmoid,
  solidity,
  toInput,
  toPhoto,
  withViews,
  type AnalyzeOptions,
  type PhotoAnalysis,
  type Point,
} from "../../core/src/measurement/index.ts";
import { analyzeOptionsFrom } from "../../adapters/inference/src/card.ts";
import { decodeImage, loadHeadContourModel } from "../../adapters/inference/src/node.ts";
import { NOSE_SIZE_BANDS, noseRuleRatio, underNoseRule } from "./nose-rule.ts";
import { modelPath } from "../../adapters/inference/src/testing.ts";
import { readTruth } from "./truth.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { limit: { type: "string" }, rows: { type: "string" }, presence: { type: "string" } },
});
const dir = positionals[0];
if (!dir) {
  process.stderr.write("Usage: pnpm tsx tests/bench/geometry-failures.bench.ts DIR [--limit N] [--rows rows.json]\n");
  process.exit(1);
}
const truth = readTruth(dir);
const good = truth.items.filter((it) => it.reasons.length === 0).slice(0, values.limit ? Number(values.limit) : undefined);
if (good.some((it) => !it.nose)) throw new Error(`${dir}/truth.json has no true nose tip (nose); rebuild the set`);
const model = await loadHeadContourModel(modelPath(), { threads: 1 });
const options: AnalyzeOptions = { ...analyzeOptionsFrom(model.card), ...(values.presence ? { nosePresence: Number(values.presence) } : {}) };
const size = model.card.input_size;
const NEAR = 0.06;

interface Row {
  image: string;
  cap: boolean;
  sticker: boolean;
  hair?: string;
  body?: string;
  nosePixels?: number;
  /** Fewer nose pixels show than render.py's rule for a visible nose asks (`underNoseRule`); undefined without the counts. */
  underNoseRule?: boolean;
  /** The nose's pixels over render.py's threshold (`noseRuleRatio`); undefined without the counts. */
  noseRuleRatio?: number;
  /** Distance of the nose the pipeline found to the true tip (share of the head's size). */
  noseError: number | null;
  /** Signed distance of the found nose from the outline as traced (outside > 0), in head radii. */
  noseBeyondOutline: number | null;
  verdict: PhotoAnalysis["verdict"];
  reasons: string[];
  noseFound: boolean;
  /** Close-up nose map: the global peak's probability and its distance to the true tip (share of the head's size). */
  peak: number;
  peakDistance: number;
  /** The highest probability within NEAR of the true tip. */
  atTrueTip: number;
  /** The peak passed plausibleNose (between half and twice the head's radius from the outline's centroid). */
  peakPlausible: boolean;
  trueTipInCrop: boolean;
  touchesFrameWhole: boolean;
  touchesFrameCloseUp: boolean;
  solidity: number;
  outlineSize: number;
  ciError: number | null;
}

/** Distance from p to the polygon's edge, positive outside. */
const signedDistance = (outline: readonly Point[], p: Point): number => {
  let nearest = Infinity;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const a = outline[j]!;
    const b = outline[i]!;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const t = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy || 1)));
    nearest = Math.min(nearest, Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy));
  }
  return insideOutline(outline, p) ? -nearest : nearest;
};

const rows: Row[] = [];
for (const item of good) {
  const image = await decodeImage(readFileSync(join(dir, item.image)));
  const a = await analyzePhoto(image, model, options);
  const headSize = item.head_px ?? item.head_diam ?? Math.max(image.width, image.height) / 2;
  const tip: Point = { x: item.nose![0], y: item.nose![1] };
  // The close-up exactly as analyzePhoto computes it.
  const whole = letterbox(image, size);
  const first = readOutputs(await model.run(whole.tensor, 1), 0, whole.transform, image, options.nosePresence ?? 0.5);
  const row: Row = {
    image: item.image,
    cap: item.cap,
    sticker: item.sticker !== null,
    hair: item.hair,
    body: item.body,
    nosePixels: item.nose_pixels,
    underNoseRule: underNoseRule(item),
    noseRuleRatio: noseRuleRatio(item),
    verdict: a.verdict,
    reasons: a.reasons,
    noseFound: a.noseTip !== null,
    noseError: a.noseTip === null ? null : Math.hypot(a.noseTip.x - tip.x, a.noseTip.y - tip.y) / headSize,
    noseBeyondOutline: null,
    peak: 0,
    peakDistance: Infinity,
    atTrueTip: 0,
    peakPlausible: false,
    trueTipInCrop: false,
    touchesFrameWhole: first.touchesFrame,
    touchesFrameCloseUp: false,
    solidity: NaN,
    outlineSize: 0,
    ciError: a.ci === null ? null : a.ci - item.ci,
  };
  if (first.region) {
    const crop = headCrop(first.region, whole.transform, options.headShareOfCrop ?? 0.7);
    const closeUp = cropAround(image, crop, size);
    const outputs = await withViews(model, size, options.closeUpViews ?? 1).run(closeUp.tensor, 1);
    const refined = readOutputs(outputs, 0, closeUp.transform, image, options.nosePresence ?? 0.5);
    const outline = refined.region ? refined.outline() : first.outline();
    row.touchesFrameCloseUp = refined.touchesFrame;
    row.solidity = outline.length >= 3 ? solidity(outline) : NaN;
    row.outlineSize = outline.length;
    if (a.noseTip && outline.length >= 3) row.noseBeyondOutline = signedDistance(outline, a.noseTip) / Math.sqrt(Math.abs(polygonArea(outline)) / Math.PI);
    const t = closeUp.transform;
    const tipIn = toInput(t, tip);
    row.trueTipInCrop = tipIn.x >= 0 && tipIn.y >= 0 && tipIn.x < size && tipIn.y < size;
    const near = (NEAR * headSize) / t.scale;
    let best = -Infinity;
    let bestAt = 0;
    let nearBest = -Infinity;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const v = outputs.nose[y * size + x]!;
        if (v > best) {
          best = v;
          bestAt = y * size + x;
        }
        if (Math.hypot(x + 0.5 - tipIn.x, y + 0.5 - tipIn.y) <= near && v > nearBest) nearBest = v;
      }
    }
    const peakAt = toPhoto(t, { x: (bestAt % size) + 0.5, y: Math.floor(bestAt / size) + 0.5 });
    row.peak = sigmoid(best);
    row.peakDistance = Math.hypot(peakAt.x - tip.x, peakAt.y - tip.y) / headSize;
    row.atTrueTip = nearBest === -Infinity ? 0 : sigmoid(nearBest);
    row.peakPlausible = plausibleNose(outline, peakAt);
  }
  rows.push(row);
}
await model.close();

const out = (s: string): void => void process.stdout.write(`${s}\n`);
const count = (rs: Row[], f: (r: Row) => boolean): number => rs.filter(f).length;
const NO_NOSE = "No nose visible";
const INCOMPLETE = "Head contour is incomplete (obstructed by hand, finger, or outside the frame)";
out(`${truth.renderer} set ${dir}: ${rows.length} good photos; nose presence ${options.nosePresence ?? 0.5}`);
const found = rows.filter((r) => r.noseFound);
out(`nose found ${found.length}: within 6 % of the head's size of the true tip ${count(found, (r) => r.noseError! <= NEAR)}, farther (a wrong axis) ${count(found, (r) => r.noseError! > NEAR)}`);
out(`accepted ${count(rows, (r) => r.verdict === "accept")}; no nose found ${count(rows, (r) => !r.noseFound)}; outline cut or bitten (touches the frame / solidity < 0.97) ${count(rows, (r) => r.touchesFrameWhole || r.touchesFrameCloseUp || r.solidity < 0.97)}`);
const noNose = rows.filter((r) => !r.noseFound);
out(`\nno nose found (${noNose.length}): the close-up's nose map`);
const presence = options.nosePresence ?? 0.5;
const bands = [
  [`peak >= ${presence} but not where a nose can be (plausibleNose)`, (r: Row) => r.peak >= presence],
  [`peak < ${presence}, at the true tip (within 6 % of the head)`, (r: Row) => r.peak < presence && r.peakDistance <= NEAR],
  [`peak < ${presence} elsewhere; at the true tip >= 0.1`, (r: Row) => r.peak < presence && r.peakDistance > NEAR && r.atTrueTip >= 0.1],
  [`peak < ${presence} elsewhere; at the true tip < 0.1 (nothing there)`, (r: Row) => r.peak < presence && r.peakDistance > NEAR && r.atTrueTip < 0.1],
] as const;
for (const [label, f] of bands) out(`  ${label.padEnd(62)} ${count(noNose, f)}`);
const hist = (xs: number[], edges: number[]): string =>
  edges.slice(0, -1).map((e, i) => `[${e},${edges[i + 1]}): ${xs.filter((x) => x >= e && x < edges[i + 1]!).length}`).join("  ");
out(`  probability at the true tip: ${hist(noNose.map((r) => r.atTrueTip), [0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 1.01])}`);
out(`  true tip outside the close-up: ${count(noNose, (r) => !r.trueTipInCrop)}`);
if (noNose.some((r) => r.nosePixels !== undefined)) {
  const med = (xs: number[]): number => [...xs].sort((p, q) => p - q)[xs.length >> 1] ?? NaN;
  out(`  visible nose pixels, median: no nose found ${med(noNose.map((r) => r.nosePixels!))}, nose found ${med(found.map((r) => r.nosePixels!))}`);
}
if (rows.some((r) => r.underNoseRule !== undefined)) {
  const under = rows.filter((r) => r.underNoseRule);
  const rest = rows.filter((r) => r.underNoseRule === false);
  const accepted = (rs: Row[]) => count(rs, (r) => r.verdict === "accept");
  out(`\ngood photos whose nose shows fewer pixels than render.py's rule for a visible nose (max(4, (0.02 D)^2)): ${under.length} of ${rows.length}`);
  out(`  of them: nose found at the true tip ${count(under, (r) => r.noseFound && r.noseError! <= NEAR)}, elsewhere ${count(under, (r) => r.noseFound && r.noseError! > NEAR)}, none ${count(under, (r) => !r.noseFound)}; accepted ${accepted(under)}`);
  out(`  the other ${rest.length}: accepted ${accepted(rest)} (${((100 * accepted(rest)) / Math.max(1, rest.length)).toFixed(1)} %), no nose found ${count(rest, (r) => !r.noseFound)}, nose elsewhere ${count(rest, (r) => r.noseFound && r.noseError! > NEAR)}`);
}
if (rows.some((r) => r.noseRuleRatio !== undefined)) {
  // Which noses the maps lose, by how much nose shows (ADR 0116): on both families the losses are the slivers.
  out(`\nnose found at the true tip, by visible nose size (its pixels over render.py's threshold max(4, (0.02 D)^2)):`);
  for (const [label, lo, hi] of NOSE_SIZE_BANDS) {
    const band = rows.filter((r) => r.noseRuleRatio !== undefined && r.noseRuleRatio >= lo && r.noseRuleRatio < hi);
    if (band.length === 0) continue;
    const lost = band.filter((r) => !r.noseFound).map((r) => r.image.replace(/\.\w+$/, ""));
    out(`  ${label.padEnd(24)} ${count(band, (r) => r.noseFound && r.noseError! <= NEAR)} of ${band.length}; elsewhere ${count(band, (r) => r.noseFound && r.noseError! > NEAR)}; none ${lost.length}${lost.length > 0 && lost.length <= 8 ? ` (${lost.join(", ")})` : ""}`);
  }
}
const cut = rows.filter((r) => r.touchesFrameWhole || r.touchesFrameCloseUp || r.solidity < 0.97);
out(`\noutline cut or bitten (${cut.length}): touches the frame (whole photo) ${count(cut, (r) => r.touchesFrameWhole)}, (close-up) ${count(cut, (r) => r.touchesFrameCloseUp)}, solidity < 0.97 ${count(cut, (r) => r.solidity < 0.97)}; also no nose ${count(cut, (r) => !r.noseFound)}`);
out(`  by body placement: ${[...new Set(rows.map((r) => r.body ?? "-"))].map((b) => `${b} ${count(cut, (r) => (r.body ?? "-") === b)}/${count(rows, (r) => (r.body ?? "-") === b)}`).join(", ")}`);
out(`  by hair: ${[...new Set(rows.map((r) => r.hair ?? "-"))].map((h) => `${h} ${count(cut, (r) => (r.hair ?? "-") === h)}/${count(rows, (r) => (r.hair ?? "-") === h)}`).join(", ")}`);
out(`  "${INCOMPLETE.slice(0, 26)}..." given: ${count(rows, (r) => r.reasons.includes(INCOMPLETE))}; "${NO_NOSE}" given: ${count(rows, (r) => r.reasons.includes(NO_NOSE))}`);
if (values.rows) writeFileSync(values.rows, JSON.stringify(rows, null, 1));
