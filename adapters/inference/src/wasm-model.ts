// Browser and kiosk side of the inference port: onnxruntime-web on its wasm backend, meant to run
// inside a Web Worker (see worker.ts) so a frame's inference never blocks the camera preview.
import * as ort from "onnxruntime-web/wasm";
import type { HeadContourModel, HeadContourOutputs } from "@crown/core/measurement/index";
import { checkModelCard, OUTPUT_NAMES, type ModelCard } from "./card.ts";

export interface WebModelOptions {
  /**
   * Where Crown serves onnxruntime-web's .wasm/.mjs files (ortWasmDir() on the server), never a CDN.
   * A URL path prefix ending in "/" (the default "/ort/"), or a file:// URL when run in Node.
   */
  readonly wasmPaths?: string;
  /** Wasm threads; more than 1 needs a cross-origin-isolated page (COOP/COEP headers). */
  readonly threads?: number;
}

export interface LoadedWebModel extends HeadContourModel {
  readonly card: ModelCard;
  close(): Promise<void>;
}

/** Set once: onnxruntime-web's environment is global to the worker. */
const configure = (options: WebModelOptions): void => {
  ort.env.wasm.wasmPaths = options.wasmPaths ?? "/ort/";
  ort.env.wasm.numThreads = options.threads ?? 1;
  // Already off the main thread; a proxy worker would only add a copy.
  ort.env.wasm.proxy = false;
};

/** `model` is the .onnx bytes (or a URL to fetch them from); `card` is model.json's content. */
export const loadHeadContourModelWeb = async (
  model: Uint8Array | string,
  card: unknown,
  options: WebModelOptions = {},
): Promise<LoadedWebModel> => {
  const checked = checkModelCard(card, typeof model === "string" ? model : "model");
  configure(options);
  const bytes = typeof model === "string" ? await fetchBytes(model) : model;
  const session = await ort.InferenceSession.create(bytes, { executionProviders: ["wasm"], graphOptimizationLevel: "all" });
  const missing = OUTPUT_NAMES.filter((name) => !session.outputNames.includes(name));
  if (missing.length > 0) throw new Error(`Not a head-contour model: missing outputs ${missing.join(", ")}`);
  return {
    card: checked,
    async run(input, n) {
      const size = checked.input_size;
      const results = await session.run({ image: new ort.Tensor("float32", input, [n, 3, size, size]) });
      const read = (name: (typeof OUTPUT_NAMES)[number]): Float32Array => {
        const data = results[name]?.data;
        if (!(data instanceof Float32Array)) throw new Error(`The model's "${name}" output is not float32`);
        return data;
      };
      const outputs: HeadContourOutputs = { mask: read("mask"), nose: read("nose"), sticker: read("sticker"), quality: read("quality") };
      return outputs;
    },
    close: () => session.release(),
  };
};

const fetchBytes = async (url: string): Promise<Uint8Array> => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`The model ${url} could not be fetched (${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
};
