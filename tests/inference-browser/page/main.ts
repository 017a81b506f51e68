// Test page: runs the inference Web Worker on sample photos and exposes the results to Playwright.
import type { PhotoAnalysis } from "@crown/core/measurement/index";
import { connectHeadContourWorker } from "../../../adapters/inference/src/worker-protocol.ts";

declare global {
  interface Window {
    crownInference: {
      ready: Promise<void>;
      analyze(url: string, repeat?: number): Promise<{ analysis: PhotoAnalysis; milliseconds: number[] }>;
      /** Load a model in a fresh worker; the error message if it fails. */
      loadError(modelUrl: string, cardUrl: string): Promise<string | null>;
    };
  }
}

const client = connectHeadContourWorker(new Worker("./worker.js", { type: "module" }));

// ?threads=N tries multi-threaded wasm (the page is served cross-origin isolated).
const threads = Number(new URLSearchParams(location.search).get("threads") ?? 1);
const ready = client.load({ modelUrl: "/model/head-contour.onnx", cardUrl: "/model/model.json", wasmPaths: "/ort/", threads }).then(() => {
  document.getElementById("status")!.textContent = "ready";
});

/** Decode a photo the way a capture screen gets frames: drawn on a canvas, read back as ImageData. */
const frameOf = async (url: string): Promise<ImageData> => {
  const bitmap = await createImageBitmap(await (await fetch(url)).blob(), { imageOrientation: "from-image" });
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext("2d")!;
  context.drawImage(bitmap, 0, 0);
  return context.getImageData(0, 0, bitmap.width, bitmap.height);
};

window.crownInference = {
  ready,
  async analyze(url, repeat = 1) {
    const frame = await frameOf(url);
    const milliseconds: number[] = [];
    let analysis: PhotoAnalysis | undefined;
    for (let i = 0; i < repeat; i++) {
      // Each call transfers the pixels, so send a fresh copy.
      const copy = new ImageData(new Uint8ClampedArray(frame.data), frame.width, frame.height);
      const result = await client.analyzeFrame(copy);
      analysis = result.analysis;
      milliseconds.push(result.milliseconds);
    }
    return { analysis: analysis!, milliseconds };
  },
  async loadError(modelUrl, cardUrl) {
    const other = connectHeadContourWorker(new Worker("./worker.js", { type: "module" }));
    try {
      await other.load({ modelUrl, cardUrl, wasmPaths: "/ort/" });
      return null;
    } catch (error) {
      return (error as Error).message;
    } finally {
      other.terminate();
    }
  },
};
