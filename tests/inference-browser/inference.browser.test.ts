// The browser adapter in Debian Chromium: onnxruntime-web (wasm) in a Web Worker, wasm files served by
// the same origin, measuring sample photos like the server does.
import { readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { chromium, type Browser, type Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzePhoto, type PhotoAnalysis } from "../../core/src/measurement/index.ts";
import { analyzeOptionsFrom } from "../../adapters/inference/src/card.ts";
import { decodeImage, loadHeadContourModel, type LoadedHeadContourModel } from "../../adapters/inference/src/node.ts";
import { modelAvailable, modelPath, samplePhotos } from "../../adapters/inference/src/testing.ts";
import { CHROMIUM, startInferencePage } from "./harness.ts";

const photos = samplePhotos().slice(0, 6);

const outlineDistance = (a: PhotoAnalysis["outline"], b: PhotoAnalysis["outline"]): number => {
  let worst = 0;
  for (const p of a) {
    let nearest = Infinity;
    for (const q of b) nearest = Math.min(nearest, Math.hypot(p.x - q.x, p.y - q.y));
    worst = Math.max(worst, nearest);
  }
  return worst;
};

describe.skipIf(!modelAvailable() || photos.length === 0)("inference Web Worker in Chromium", () => {
  let site: Awaited<ReturnType<typeof startInferencePage>>;
  let browser: Browser;
  let page: Page;
  let server: LoadedHeadContourModel;
  const foreignRequests: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    site = await startInferencePage(modelPath(), dirname(photos[0]!));
    browser = await chromium.launch(CHROMIUM);
    page = await browser.newPage();
    page.on("request", (request) => {
      if (!request.url().startsWith(site.origin)) foreignRequests.push(request.url());
    });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("response", (response) => {
      if (response.status() >= 400) pageErrors.push(`${response.status()} ${response.url()}`);
    });
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(message.text());
    });
    await page.goto(`${site.origin}/`);
    await page.evaluate(() => window.crownInference.ready);
    server = await loadHeadContourModel(modelPath(), { threads: 1 });
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await server?.close();
  });

  it.each(photos)("measures %s as the server does", async (path) => {
    const url = `/sample/${basename(path)}`;
    const inBrowser = await page.evaluate((u) => window.crownInference.analyze(u), url);
    const onServer = await analyzePhoto(await decodeImage(readFileSync(path)), server, analyzeOptionsFrom(server.card, "live"));
    const a = inBrowser.analysis;
    expect(a.accepted).toBe(onServer.accepted);
    expect(a.reasons).toEqual(onServer.reasons);
    // The browser decodes the JPEG itself, so allow a little more than the Node-only parity test.
    if (onServer.outline.length > 0) expect(outlineDistance(onServer.outline, a.outline)).toBeLessThan(0.5);
    for (const key of ["ci", "cvai", "cva_mm"] as const) {
      if (onServer[key] === null) expect(a[key], key).toBeNull();
      else expect(Math.abs(onServer[key]! - a[key]!), key).toBeLessThan(0.1);
    }
  });

  it("says which file is missing when the model cannot be loaded", async () => {
    expect(await page.evaluate(() => window.crownInference.loadError("/model/head-contour.onnx", "/model/missing.json"))).toMatch(
      /model card \/model\/missing\.json could not be fetched \(404\)/,
    );
    expect(await page.evaluate(() => window.crownInference.loadError("/model/missing.onnx", "/model/model.json"))).toMatch(
      /model \/model\/missing\.onnx could not be fetched \(404\)/,
    );
    // Those two 404s were asked for; nothing else may fail.
    pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((e) => !/missing\.(json|onnx)|404 \(Not Found\)/.test(e)));
  });

  it("fetched nothing from anywhere but Crown's own origin, and logged no errors", () => {
    expect(foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
