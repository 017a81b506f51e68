import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * One photo of a rendered set's truth.json, as the renderers write it: models/head-contour/data.py eval
 * (render.py), render2/build_set.py and render3/build.py. Fields only some renderers write are optional.
 */
export interface TruthItem {
  image: string;
  ci: number;
  cvai: number;
  /** The bad-image reasons the photo was rendered with; none for a good photo. */
  reasons: number[];
  cap: boolean;
  cva_mm?: number;
  length_mm?: number;
  hair?: string;
  body?: string;
  kind?: string;
  /** render2: the longer of the section's spans in pixels; data.py: head_diam, render.py's D. */
  head_px?: number;
  head_diam?: number;
  nose_pixels?: number;
  /** The true nose tip in photo pixels (render2, render3). */
  nose?: [number, number];
  render_seconds?: number;
  /** render2: null or { mm, height_mm, ... }; data.py: the disc in pixels (a cap always has the kit's sticker). */
  sticker: { mm: number } | number[] | null;
}

export interface TruthSet {
  readonly seed: number;
  /** The renderer that wrote the set; render.py's sets name none. */
  readonly renderer: string;
  readonly items: TruthItem[];
}

/** DIR/truth.json: the set's seed, its renderer and its photos, the first `limit` of them when a limit is given (--limit). */
export const readTruth = (dir: string, limit?: string | number): TruthSet => {
  const truth = JSON.parse(readFileSync(join(dir, "truth.json"), "utf8")) as { seed: number; renderer?: string; items: TruthItem[] };
  return { seed: truth.seed, renderer: truth.renderer ?? "render.py", items: truth.items.slice(0, limit ? Number(limit) : undefined) };
};
