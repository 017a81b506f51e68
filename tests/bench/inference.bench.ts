// Inference benchmark (prints figures; no timed assertions):
//   pnpm tsx tests/bench/inference.bench.ts [--eval DIR] [--limit N] [--no-browser] [--runs N] [--outline logits|probabilities]
//     [--views 1|2|4|8] [--rows rows.json]
// - the model's size;
// - server time per image with one thread (onnxruntime-node): one model pass, and a whole measurement
//   (whole-photo pass, the close-up in the model card's views, geometry);
// - Chromium time per frame (onnxruntime-web wasm in a Web Worker, two passes, as auto-capture runs it);
// - on a held-out rendered set (models/head-contour/data/eval/truth.json from build.sh, or --eval DIR):
//   MAE of CI and CVAI, share of good images accepted, and the right reason on bad images per reason,
//   all through the TypeScript pipeline that ships.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright";
import sharp from "sharp";
import { analyzePhoto, letterbox, QUALITY_REASONS, type PhotoAnalysis } from "../../core/src/measurement/index.ts";
import { analyzeOptionsFrom } from "../../adapters/inference/src/card.ts";
import { decodeImage, loadHeadContourModel } from "../../adapters/inference/src/node.ts";
import { modelPath, samplePhotos } from "../../adapters/inference/src/testing.ts";
import { CHROMIUM, startInferencePage } from "../inference-browser/harness.ts";
import { readTruth, type TruthItem } from "./truth.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const { values } = parseArgs({
  options: {
    eval: { type: "string" },
    limit: { type: "string" },
    runs: { type: "string" },
    "no-browser": { type: "boolean" },
    outline: { type: "string" },
    views: { type: "string" },
    rows: { type: "string" },
  },
});
const runs = Number(values.runs ?? 50);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const percentile = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number): string => `${x.toFixed(1)} ms`;
/** CPU time of this process since `since`: a fairer figure than wall time on a busy machine. */
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const line = (label: string, value: string, goal?: string): void => {
  process.stdout.write(`${label.padEnd(52)} ${value}${goal ? `   (goal ${goal})` : ""}\n`);
};

const path = modelPath();
if (!existsSync(path)) {
  process.stderr.write(`No model at ${path}; build it with \`pnpm model:build\` or set CROWN_MODEL.\n`);
  process.exit(1);
}
process.stdout.write(`Head-contour model: ${path}\nload average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs (wall times suffer on a busy machine)\n\n`);
line("model size", `${(statSync(path).size / 1e6).toFixed(2)} MB`, "at most 5 MB");

const model = await loadHeadContourModel(path, { threads: 1 });
const options = {
  ...analyzeOptionsFrom(model.card),
  outlineFrom: values.outline === "probabilities" ? ("probabilities" as const) : ("logits" as const),
  ...(values.views ? { closeUpViews: Number(values.views) as 1 | 2 | 4 | 8 } : {}),
};
process.stdout.write(`close-up views averaged when measuring: ${options.closeUpViews}\n`);
const size = model.card.input_size;
const photos = samplePhotos();

// One pass of the network, one thread.
const input = new Float32Array(3 * size * size).map((_, i) => ((i * 7919) % 1000) / 1000);
for (let i = 0; i < 5; i++) await model.run(input, 1);
const passTimes: number[] = [];
const cpu = process.cpuUsage();
for (let i = 0; i < runs; i++) {
  const t = performance.now();
  await model.run(input, 1);
  passTimes.push(performance.now() - t);
}
line("server, one model pass, 1 thread (median / p90)", `${ms(median(passTimes))} / ${ms(percentile(passTimes, 90))}, ${ms(cpuMs(cpu) / runs)} CPU`);

// A whole photo: letterbox, pass 1, crop, pass 2, outline, geometry, verdict.
/** Wall times of whole measurements over `images`, after one warm-up each, and the CPU time per photo. */
const timeMeasurements = async (images: Awaited<ReturnType<typeof decodeImage>>[]): Promise<{ times: number[]; cpuPerPhoto: number }> => {
  for (const image of images) await analyzePhoto(image, model, options);
  const times: number[] = [];
  const since = process.cpuUsage();
  for (let i = 0; i < Math.max(1, Math.round(runs / images.length)); i++) {
    for (const image of images) {
      const t = performance.now();
      await analyzePhoto(image, model, options);
      times.push(performance.now() - t);
    }
  }
  return { times, cpuPerPhoto: cpuMs(since) / times.length };
};
if (photos.length > 0) {
  const images = await Promise.all(photos.slice(0, 10).map(async (p) => decodeImage(readFileSync(p))));
  const small = await timeMeasurements(images);
  line(`server, per photo measured (${options.closeUpViews ?? 1} close-up view(s)), 1 thread`, `${ms(median(small.times))} median, ${ms(Math.min(...small.times))} best, ${ms(percentile(small.times, 90))} p90, ${ms(small.cpuPerPhoto)} CPU`, "20 ms");
  const sizes = images.map((i) => `${i.width}x${i.height}`);
  process.stdout.write(`${"".padEnd(52)} (${images.length} sample photos, ${[...new Set(sizes)].slice(0, 4).join(", ")}${sizes.length > 4 ? ", ..." : ""})\n`);
  // Uploads reach the measurement decoded to at most 1024 px a side (core/src/report, analysisMaxSide);
  // a phone photo is larger than that, so it arrives at 1024 px and the resampling costs more.
  const large = await timeMeasurements(
    await Promise.all(photos.slice(0, 10).map(async (p) => decodeImage(await sharp(readFileSync(p)).resize({ width: 1024 }).jpeg({ quality: 95 }).toBuffer()))),
  );
  line(`  the same photos at 1024 px wide, as uploads arrive`, `${ms(median(large.times))} median, ${ms(Math.min(...large.times))} best, ${ms(large.cpuPerPhoto)} CPU`, "20 ms");
} else {
  const image = { width: 960, height: 720, channels: 3 as const, data: new Uint8Array(960 * 720 * 3).fill(100) };
  const t = performance.now();
  for (let i = 0; i < runs; i++) letterbox(image, size);
  line("letterbox 960x720 (no sample photos found)", ms((performance.now() - t) / runs));
}

// Chromium: the Web Worker measures a frame.
if (!values["no-browser"] && photos.length > 0) {
  const site = await startInferencePage(path, dirname(photos[0]!));
  const browser = await chromium.launch(CHROMIUM);
  try {
    const page = await browser.newPage();
    await page.goto(`${site.origin}/`);
    await page.evaluate(() => window.crownInference.ready);
    const frameTimes: number[] = [];
    const sample = photos.slice(0, 5);
    for (const photo of sample) {
      const url = `/sample/${photo.slice(dirname(photo).length + 1)}`;
      await page.evaluate((u) => window.crownInference.analyze(u, 2), url); // warm-up
      const { milliseconds } = await page.evaluate(({ u, n }) => window.crownInference.analyze(u, n), { u: url, n: Math.max(4, Math.round(runs / sample.length)) });
      frameTimes.push(...milliseconds);
    }
    line("Chromium Web Worker, per frame (wasm, 1 thread)", `${ms(median(frameTimes))} median, ${ms(percentile(frameTimes, 90))} p90, ${ms(Math.min(...frameTimes))} best`, "60 ms");
  } finally {
    await browser.close();
    await site.close();
  }
}

// Accuracy on a held-out rendered set, through the TypeScript pipeline.
const evalDir = values.eval ?? join(ROOT, "models/head-contour/data/eval");
const truthFile = join(evalDir, "truth.json");
if (existsSync(truthFile)) {
  const truth = readTruth(evalDir, values.limit);
  const items = truth.items;
  const rows: { item: TruthItem; analysis: PhotoAnalysis }[] = [];
  const started = performance.now();
  for (const item of items) {
    const image = await decodeImage(readFileSync(join(evalDir, item.image)));
    rows.push({ item, analysis: await analyzePhoto(image, model, options) });
  }
  if (values.rows) {
    // Per image, for error analysis: the truth beside what the pipeline found.
    const dump = rows.map(({ item, analysis: a }) => ({ ...item, found: { ci: a.ci, cvai: a.cvai, accepted: a.accepted, reasons: a.reasons, quality: a.quality, nose: a.noseTip, centre: a.centre, length: a.length, width: a.width } }));
    writeFileSync(values.rows, JSON.stringify(dump));
  }
  const good = rows.filter((r) => r.item.reasons.length === 0);
  const bad = rows.filter((r) => r.item.reasons.length > 0);
  const measured = good.filter((r) => r.analysis.ci !== null);
  const accepted = good.filter((r) => r.analysis.accepted);
  const mae = (rs: typeof rows, key: "ci" | "cvai"): string =>
    rs.length === 0 ? "-" : (rs.reduce((s, r) => s + Math.abs(r.analysis[key]! - r.item[key]), 0) / rs.length).toFixed(2);
  const p90 = (rs: typeof rows, key: "ci" | "cvai"): string =>
    rs.length === 0 ? "-" : percentile(rs.map((r) => Math.abs(r.analysis[key]! - r.item[key])), 90).toFixed(2);
  process.stdout.write(`\nHeld-out rendered set ${evalDir} (seed ${truth.seed}): ${rows.length} images, ${good.length} good, ${bad.length} bad, ${ms((performance.now() - started) / rows.length)} per image\n`);
  line("CI MAE on accepted good images", `${mae(accepted, "ci")} (p90 ${p90(accepted, "ci")}, n=${accepted.length})`, "at most 1.0");
  line("CVAI MAE on accepted good images", `${mae(accepted, "cvai")} (p90 ${p90(accepted, "cvai")})`, "at most 1.0");
  line("CI / CVAI MAE on all measured good images", `${mae(measured, "ci")} / ${mae(measured, "cvai")} (n=${measured.length})`);
  line("good images accepted", `${((100 * accepted.length) / Math.max(1, good.length)).toFixed(1)} %`, "95 %");
  line("bad images rejected (any reason)", `${((100 * bad.filter((r) => !r.analysis.accepted).length) / Math.max(1, bad.length)).toFixed(1)} %`);
  process.stdout.write("right reason on bad images, per reason (goal 90 %):\n");
  QUALITY_REASONS.forEach((reason, i) => {
    const having = bad.filter((r) => r.item.reasons.includes(i));
    const right = having.filter((r) => r.analysis.reasons.includes(reason));
    line(`  ${reason.length > 48 ? `${reason.slice(0, 47)}…` : reason}`, having.length ? `${((100 * right.length) / having.length).toFixed(1)} % of ${having.length}` : "none in the set");
  });
} else {
  process.stdout.write(`\nNo held-out set at ${truthFile} (models/head-contour/build.sh writes it); skipping accuracy.\n`);
}
await model.close();
