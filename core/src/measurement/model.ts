// The inference port: one head-contour model, run by onnxruntime-node or onnxruntime-web.
import { Context } from "effect";

/** Raw outputs for a batch of n images, each map [n, 1, size, size] and quality [n, 8], all logits. */
export interface HeadContourOutputs {
  readonly mask: Float32Array;
  readonly nose: Float32Array;
  readonly sticker: Float32Array;
  readonly quality: Float32Array;
  /** With several views of each input (views.ts): every view's quality logits, [n, views, 8]. */
  readonly viewQuality?: Float32Array;
}

/** Which model measured: its name and its card's version, recorded with each measurement (ADR 0066). */
export interface MeasuringModel {
  readonly name: string;
  readonly version: string;
}

export interface HeadContourModel {
  /** `input` is float32 NCHW [n, 3, size, size], RGB in [0, 1], letterboxed with padding 0. */
  run(input: Float32Array, n: number): Promise<HeadContourOutputs>;
  /** Who this model is, when its card says (absent: its measurements record no model). */
  readonly identity?: MeasuringModel;
}

export const HeadContourModel = Context.GenericTag<HeadContourModel>("crown/HeadContourModel");

/** models/head-contour/model.json: the fields the measurement needs. */
export interface HeadContourCard {
  readonly input_size: number;
  readonly reasons: readonly string[];
  readonly sticker_diameter_mm: number;
  readonly nose_sigma_px: number;
  /** Turns and mirrors of the close-up averaged when a photo is measured (views.ts); 1 when absent. */
  readonly measure_views?: 1 | 2 | 4 | 8;
}
