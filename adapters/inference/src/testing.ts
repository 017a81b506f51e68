// Test fixtures: where the head-contour model and its sample photos are.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const MODEL_DIR = fileURLToPath(new URL("../../../models/head-contour/", import.meta.url));

/** The committed model, or CROWN_MODEL (e.g. a development model). */
export const modelPath = (): string => process.env.CROWN_MODEL ?? join(MODEL_DIR, "head-contour.onnx");

export const modelAvailable = (): boolean => existsSync(modelPath());

export const samplesDir = (): string => process.env.CROWN_SAMPLES ?? join(MODEL_DIR, "samples");

/** Sample photos committed beside the model (or CROWN_SAMPLES), sorted by name. */
export const samplePhotos = (): string[] => {
  const dir = samplesDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /\.(jpe?g|png|webp)$/i.test(name) && !/_mask\./.test(name))
    .sort()
    .map((name) => join(dir, name));
};

/** models/head-contour/samples/truth.json: what each sample photo really shows (rendered truth). */
export interface SampleTruth {
  readonly image: string;
  readonly good: boolean;
  readonly reasons: string[];
  readonly ci: number;
  readonly cvai: number;
}

export const sampleTruth = (): Map<string, SampleTruth> => {
  const file = join(samplesDir(), "truth.json");
  if (!existsSync(file)) return new Map();
  const parsed = JSON.parse(readFileSync(file, "utf8")) as { images?: SampleTruth[] };
  return new Map((parsed.images ?? []).map((t) => [t.image, t]));
};

/** A sample video (models/head-contour/samples/clip.mp4), if there is one. */
export const sampleVideo = (): string | null => {
  const file = join(samplesDir(), "clip.mp4");
  return existsSync(file) ? file : null;
};
