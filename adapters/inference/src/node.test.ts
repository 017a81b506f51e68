import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzePhoto, letterbox, QUALITY_REASONS, type PhotoAnalysis } from "@crown/core/measurement/index";
import { analyzeOptionsFrom } from "./card.ts";
import { decodeImage, loadHeadContourModel, ortWasmDir, type LoadedHeadContourModel } from "./node.ts";
import { modelAvailable, modelPath, samplePhotos, samplesDir, sampleTruth } from "./testing.ts";

describe.skipIf(!modelAvailable())("onnxruntime-node head-contour model", () => {
  let model: LoadedHeadContourModel;
  beforeAll(async () => {
    model = await loadHeadContourModel(modelPath(), { threads: 1 });
  });
  afterAll(() => model?.close());

  it("reads its card and answers a batch of any size, each image as if alone", async () => {
    const size = model.card.input_size;
    expect(model.card.reasons).toEqual([...QUALITY_REASONS]);
    const plane = 3 * size * size;
    const batch = new Float32Array(2 * plane);
    for (let i = 0; i < batch.length; i++) batch[i] = ((i * 7919) % 1000) / 1000;
    const both = await model.run(batch, 2);
    expect(both.mask.length).toBe(2 * size * size);
    expect(both.nose.length).toBe(2 * size * size);
    expect(both.sticker.length).toBe(2 * size * size);
    expect(both.quality.length).toBe(2 * QUALITY_REASONS.length);
    const second = await model.run(batch.slice(plane), 1);
    const worst = second.mask.reduce((m, v, i) => Math.max(m, Math.abs(v - both.mask[size * size + i]!)), 0);
    expect(worst).toBeLessThan(1e-3);
  });

  const photos = samplePhotos();
  it.skipIf(photos.length === 0).each(photos)("measures %s sanely", async (path) => {
    const image = await decodeImage(readFileSync(path));
    const a: PhotoAnalysis = await analyzePhoto(image, model, analyzeOptionsFrom(model.card));
    expect(a.accepted).toBe(a.reasons.length === 0);
    for (const r of a.reasons) expect(QUALITY_REASONS).toContain(r);
    expect(a.quality).toHaveLength(8);
    if (a.accepted) {
      expect(a.ci).toBeGreaterThan(55);
      expect(a.ci).toBeLessThan(125);
      expect(a.cvai).toBeGreaterThanOrEqual(0);
      expect(a.cvai).toBeLessThan(30);
      // The outline lies on the photo (give or take the sub-pixel interpolation).
      for (const p of a.outline) {
        expect(p.x).toBeGreaterThan(-1);
        expect(p.x).toBeLessThan(image.width + 1);
        expect(p.y).toBeGreaterThan(-1);
        expect(p.y).toBeLessThan(image.height + 1);
      }
      // The nose is in front of the head: beyond the centre along the AP axis, near the outline's front.
      const ahead = (a.noseTip!.x - a.centre!.x) * a.apAxis!.x + (a.noseTip!.y - a.centre!.y) * a.apAxis!.y;
      expect(ahead).toBeGreaterThan(0.3 * a.length!);
      expect(ahead).toBeLessThan(0.8 * a.length!);
    }
    if (a.cva_mm !== null) expect(a.sticker).not.toBeNull();
  });

  // The samples' rendered truth: a sanity bound on the median error (a mapping or geometry bug is
  // off by far more on every photo); the benchmark reports the model's real error.
  const truth = sampleTruth();
  it.skipIf(truth.size === 0)("accepts most good samples, measures them in the truth's neighbourhood, and rejects the bad ones", async () => {
    const options = analyzeOptionsFrom(model.card);
    const ciErrors: number[] = [];
    const cvaiErrors: number[] = [];
    let good = 0;
    for (const [name, t] of truth) {
      const a = await analyzePhoto(await decodeImage(readFileSync(join(samplesDir(), name))), model, options);
      if (!t.good) {
        expect(a.accepted, `${name} shows ${t.reasons.join("; ")}`).toBe(false);
        continue;
      }
      good++;
      if (!a.accepted) continue;
      ciErrors.push(Math.abs(a.ci! - t.ci));
      cvaiErrors.push(Math.abs(a.cvai! - t.cvai));
    }
    expect(ciErrors.length).toBeGreaterThanOrEqual(Math.ceil(good / 2));
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
    expect(median(ciErrors), `CI errors ${ciErrors.map((e) => e.toFixed(1)).join(", ")}`).toBeLessThan(8);
    expect(median(cvaiErrors), `CVAI errors ${cvaiErrors.map((e) => e.toFixed(1)).join(", ")}`).toBeLessThan(6);
  });

  it("is deterministic", async () => {
    const input = letterbox({ width: 4, height: 4, channels: 3, data: new Uint8Array(48).fill(128) }, model.card.input_size).tensor;
    const [a, b] = [await model.run(input, 1), await model.run(input, 1)];
    expect(a.quality).toEqual(b.quality);
  });
});

describe("loading a model", () => {
  const dir = mkdtempSync(join(tmpdir(), "crown-model-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("says when model.json is missing or disagrees with core's reasons", async () => {
    const onnx = join(dir, "head-contour.onnx");
    writeFileSync(onnx, "not a model");
    await expect(loadHeadContourModel(onnx)).rejects.toThrow(/model\.json/);
    writeFileSync(join(dir, "model.json"), JSON.stringify({ input_size: 160, reasons: ["Image is blurry"], sticker_diameter_mm: 30, nose_sigma_px: 2.5 }));
    await expect(loadHeadContourModel(onnx)).rejects.toThrow(/reasons differ/);
  });

  it.skipIf(!modelAvailable())("refuses a file that is not an ONNX model", async () => {
    const other = mkdtempSync(join(tmpdir(), "crown-model-"));
    copyFileSync(join(modelPath(), "..", "model.json"), join(other, "model.json"));
    writeFileSync(join(other, "head-contour.onnx"), "not a model");
    await expect(loadHeadContourModel(join(other, "head-contour.onnx"))).rejects.toThrow();
    rmSync(other, { recursive: true, force: true });
  });

  it("finds onnxruntime-web's wasm files for the server to serve", () => {
    expect(readFileSync(join(ortWasmDir(), "ort-wasm-simd-threaded.wasm")).subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));
  });
});
