// The server (onnxruntime-node) and the browser (onnxruntime-web, wasm) must measure alike.
// onnxruntime-web runs in Node here on the same wasm backend; tests/inference-browser runs it in Chromium.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzePhoto, letterbox, type PhotoAnalysis } from "@crown/core/measurement/index";
import { analyzeOptionsFrom } from "./card.ts";
import { decodeImage, loadHeadContourModel, ortWasmDir, readModelCard, type LoadedHeadContourModel } from "./node.ts";
import { modelAvailable, modelPath, samplePhotos } from "./testing.ts";
import { loadHeadContourModelWeb, type LoadedWebModel } from "./wasm-model.ts";

/** Largest distance from a point of one outline to the nearest point of the other. */
export const outlineDistance = (a: PhotoAnalysis["outline"], b: PhotoAnalysis["outline"]): number => {
  let worst = 0;
  for (const p of a) {
    let nearest = Infinity;
    for (const q of b) nearest = Math.min(nearest, Math.hypot(p.x - q.x, p.y - q.y));
    worst = Math.max(worst, nearest);
  }
  return worst;
};

describe.skipIf(!modelAvailable())("onnxruntime-node and onnxruntime-web agree", () => {
  let server: LoadedHeadContourModel;
  let browser: LoadedWebModel;
  beforeAll(async () => {
    server = await loadHeadContourModel(modelPath(), { threads: 1 });
    browser = await loadHeadContourModelWeb(readFileSync(modelPath()), await readModelCard(modelPath()), {
      wasmPaths: pathToFileURL(join(ortWasmDir(), "/")).href,
    });
  });
  afterAll(async () => {
    await server?.close();
    await browser?.close();
  });

  it("on the raw outputs", async () => {
    const size = server.card.input_size;
    const input = new Float32Array(3 * size * size);
    for (let i = 0; i < input.length; i++) input[i] = ((i * 104729) % 997) / 997;
    const [a, b] = [await server.run(input, 1), await browser.run(input, 1)];
    for (const key of ["mask", "nose", "sticker", "quality"] as const) {
      const worst = a[key].reduce((m, v, i) => Math.max(m, Math.abs(v - b[key][i]!)), 0);
      expect(worst, key).toBeLessThan(1e-3);
    }
  });

  const photos = samplePhotos();
  it.skipIf(photos.length === 0).each(photos)("on the outline, the verdict and the indices of %s", async (path) => {
    const image = await decodeImage(readFileSync(path));
    const options = analyzeOptionsFrom(server.card);
    const [a, b] = [await analyzePhoto(image, server, options), await analyzePhoto(image, browser, options)];
    expect(b.accepted).toBe(a.accepted);
    expect(b.reasons).toEqual(a.reasons);
    expect(b.outline.length).toBeGreaterThan(0.9 * a.outline.length);
    if (a.outline.length > 0) expect(outlineDistance(a.outline, b.outline)).toBeLessThan(0.1);
    for (const key of ["ci", "cvai", "cva_mm"] as const) {
      if (a[key] === null) expect(b[key], key).toBeNull();
      else expect(Math.abs(a[key]! - b[key]!), key).toBeLessThan(0.1);
    }
  });

  it("on a letterboxed photo of an odd size", async () => {
    const data = new Uint8Array(37 * 53 * 3).map((_, i) => (i * 31) % 256);
    const input = letterbox({ width: 37, height: 53, data, channels: 3 }, server.card.input_size).tensor;
    const [a, b] = [await server.run(input, 1), await browser.run(input, 1)];
    expect(Math.max(...a.quality.map((v, i) => Math.abs(v - b.quality[i]!)))).toBeLessThan(1e-3);
  });
});
