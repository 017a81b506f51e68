// Server side of the inference port: onnxruntime-node for the model, sharp for decoding photos.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as ort from "onnxruntime-node";
import sharp from "sharp";
import type { HeadContourModel, HeadContourOutputs, RgbImage } from "@crown/core/measurement/index";
import { checkModelCard, OUTPUT_NAMES, type ModelCard } from "./card.ts";

export interface LoadedHeadContourModel extends HeadContourModel {
  /** models/head-contour/model.json, read from beside the .onnx file. */
  readonly card: ModelCard;
  close(): Promise<void>;
}

export interface NodeModelOptions {
  /** Intra-op threads; 1 keeps one analysis from starving the web server. */
  readonly threads?: number;
}

/** Read the model card that sits beside the .onnx file. */
export const readModelCard = async (modelPath: string): Promise<ModelCard> =>
  checkModelCard(JSON.parse(await readFile(join(dirname(modelPath), "model.json"), "utf8")), modelPath);

export const loadHeadContourModel = async (path: string, options: NodeModelOptions = {}): Promise<LoadedHeadContourModel> =>
  openHeadContourModel(path, await readModelCard(path), path, options);

/**
 * The same model from its bytes and card (an installed candidate, kept in the object store; ADR 0159).
 * The card is checked as a file's would be.
 */
export const loadHeadContourModelFromBytes = async (bytes: Uint8Array, card: unknown, options: NodeModelOptions = {}): Promise<LoadedHeadContourModel> =>
  openHeadContourModel(bytes, checkModelCard(card, "the candidate"), "the candidate", options);

const openHeadContourModel = async (source: string | Uint8Array, card: ModelCard, name: string, options: NodeModelOptions): Promise<LoadedHeadContourModel> => {
  const sessionOptions = { executionProviders: ["cpu"], intraOpNumThreads: options.threads ?? 1, interOpNumThreads: 1, graphOptimizationLevel: "all" } as const;
  const session = typeof source === "string" ? await ort.InferenceSession.create(source, sessionOptions) : await ort.InferenceSession.create(source, sessionOptions);
  const missing = OUTPUT_NAMES.filter((name) => !session.outputNames.includes(name));
  if (missing.length > 0 || !session.inputNames.includes("image")) {
    await session.release();
    throw new Error(`${name} is not a head-contour model: it needs input "image" and outputs ${OUTPUT_NAMES.join(", ")}`);
  }
  return {
    card,
    ...identityOf(card),
    async run(input, n) {
      const size = card.input_size;
      const feeds = { image: new ort.Tensor("float32", input, [n, 3, size, size]) };
      const results = await session.run(feeds);
      return readResults(results);
    },
    close: () => session.release(),
  };
};

/** The model's name and version as its card states them; nothing when the card has no version. */
export const identityOf = (card: ModelCard) =>
  typeof card.version === "string" && card.version !== "" ? { identity: { name: MODEL_NAME, version: card.version } } : {};

/** What an Observation's device and the recorded measurements call this model. */
export const MODEL_NAME = "Crown head-contour model";

const readResults = (results: Record<string, { data: unknown }>): HeadContourOutputs => {
  const read = (name: (typeof OUTPUT_NAMES)[number]): Float32Array => {
    const data = results[name]?.data;
    if (!(data instanceof Float32Array)) throw new Error(`The model's "${name}" output is not float32`);
    return data;
  };
  return { mask: read("mask"), nose: read("nose"), sticker: read("sticker"), quality: read("quality") };
};

export interface DecodeOptions {
  /** Shrink larger photos to fit this side; the measurement then comes out in the shrunk pixels. */
  readonly maxSide?: number;
}

/**
 * Decode a photo (JPEG, PNG, WebP, TIFF, ...) to RGB pixels, turned upright by its EXIF orientation
 * as the phone that took it meant.
 */
export const decodeImage = async (bytes: Uint8Array, options: DecodeOptions = {}): Promise<RgbImage> => {
  let pipeline = sharp(bytes, { failOn: "error" }).rotate();
  if (options.maxSide) pipeline = pipeline.resize({ width: options.maxSide, height: options.maxSide, fit: "inside", withoutEnlargement: true });
  const { data, info } = await pipeline.toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`Expected an RGB image, got ${info.channels} channels`);
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), channels: 3 };
};

/**
 * The directory holding onnxruntime-web's .wasm and .mjs files, for the server to serve at /ort/
 * so browsers and kiosks never fetch them from a CDN.
 */
export const ortWasmDir = (): string =>
  dirname(createRequire(import.meta.url).resolve("onnxruntime-web/ort-wasm-simd-threaded.wasm"));
