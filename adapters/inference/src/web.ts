// The browser entry (`@crown/inference/web`), for the portal's capture page and the kiosk: the
// head-contour model in a module Web Worker (worker.ts: onnxruntime-web + core's analyzePhoto),
// reached through the small client of worker-protocol.ts. No onnxruntime import here, so a page's
// bundle stays small; pages load this module lazily, so the model is never part of the login bundle.
import type { PhotoAnalysis } from "@crown/core/measurement/index";
import { connectHeadContourWorker, type HeadContourWorkerClient } from "./worker-protocol.ts";

export type { PhotoAnalysis };
export type { FramePixels, HeadContourWorkerClient } from "./worker-protocol.ts";

/** Where Crown serves the model, its card and onnxruntime-web's wasm (apps/server static assets). */
export const MODEL_URL = "/models/head-contour.onnx";
export const CARD_URL = "/models/head-contour.json";
export const WASM_PATHS = "/ort/";

let shared: Promise<HeadContourWorkerClient> | null = null;

/** The one worker of the page, loaded on first use; a failed load is forgotten so the next call tries again. */
export const headContourWorker = (): Promise<HeadContourWorkerClient> => {
  if (!shared) {
    const worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module", name: "head-contour" });
    const client = connectHeadContourWorker(worker);
    shared = client.load({ modelUrl: MODEL_URL, cardUrl: CARD_URL, wasmPaths: WASM_PATHS }).then(() => client);
    shared.catch(() => {
      worker.terminate();
      shared = null;
    });
  }
  return shared;
};

/** The model judges frames at most this large (longest side); shots are kept at most SHOT_MAX_SIDE. */
export const ANALYSIS_MAX_SIDE = 640;
export const SHOT_MAX_SIDE = 1600;

export const scaledSize = (width: number, height: number, max: number) => {
  const k = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * k)), height: Math.max(1, Math.round(height * k)) };
};

/** A video's current frame (or a canvas, or a decoded image) on a new canvas, longest side at most `max`; null before the video has a frame. */
export const drawScaled = (source: HTMLVideoElement | HTMLCanvasElement | ImageBitmap, max: number): HTMLCanvasElement | null => {
  const [width, height] = source instanceof HTMLVideoElement ? [source.videoWidth, source.videoHeight] : [source.width, source.height];
  if ((source instanceof HTMLVideoElement && source.readyState < 2) || !width || !height) return null;
  const size = scaledSize(width, height, max);
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  if (!context) return null;
  context.drawImage(source, 0, 0, size.width, size.height);
  return canvas;
};

/** A judged frame: the analysis, in the pixels of the analysed (scaled) frame, for drawing the outline over the preview. */
export interface JudgedFrame {
  readonly width: number;
  readonly height: number;
  readonly analysis: PhotoAnalysis;
}

/** Judges a shot or frame with the model, scaled down to ANALYSIS_MAX_SIDE first. */
export const judgeFrame = async (client: HeadContourWorkerClient, canvas: HTMLCanvasElement): Promise<JudgedFrame | null> => {
  const small = drawScaled(canvas, ANALYSIS_MAX_SIDE);
  const context = small?.getContext("2d", { willReadFrequently: true });
  if (!small || !context) return null;
  const { analysis } = await client.analyzeFrame(context.getImageData(0, 0, small.width, small.height));
  return { width: small.width, height: small.height, analysis };
};

/** A kept shot as the JPEG that is uploaded. */
export const jpegOf = (canvas: HTMLCanvasElement) => new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.92));
