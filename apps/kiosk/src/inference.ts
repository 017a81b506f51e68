import type { PhotoAnalysis } from "@crown/core/measurement/index";
import { connectHeadContourWorker, type HeadContourWorkerClient } from "../../../adapters/inference/src/worker-protocol.ts";

/** The head-contour model in a Web Worker (onnxruntime-web + core's analyzePhoto), as in the portal. */
export const MODEL_URL = "/models/head-contour.onnx";
export const CARD_URL = "/models/head-contour.json";
export const WASM_PATHS = "/ort/";

export type { PhotoAnalysis };

let shared: Promise<HeadContourWorkerClient> | null = null;

export const headContourWorker = (): Promise<HeadContourWorkerClient> => {
  if (!shared) {
    const worker = new Worker(new URL("../../../adapters/inference/src/worker.ts", import.meta.url), { type: "module", name: "head-contour" });
    const client = connectHeadContourWorker(worker);
    shared = client.load({ modelUrl: MODEL_URL, cardUrl: CARD_URL, wasmPaths: WASM_PATHS }).then(() => client);
    shared.catch(() => {
      worker.terminate();
      shared = null;
    });
  }
  return shared;
};
