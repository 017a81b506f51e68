// Test fixtures: where the head-contour model and its sample photos are.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const MODEL_DIR = fileURLToPath(new URL("../../../models/head-contour/", import.meta.url));

/** The committed model, or CROWN_MODEL (e.g. a development model). */
export const modelPath = (): string => process.env.CROWN_MODEL ?? join(MODEL_DIR, "head-contour.onnx");

export const modelAvailable = (): boolean => existsSync(modelPath());

/** Sample photos committed beside the model (or CROWN_SAMPLES), sorted by name. */
export const samplePhotos = (): string[] => {
  const dir = process.env.CROWN_SAMPLES ?? join(MODEL_DIR, "samples");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /\.(jpe?g|png|webp)$/i.test(name) && !/_mask\./.test(name))
    .sort()
    .map((name) => join(dir, name));
};
