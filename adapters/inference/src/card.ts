// The model card (models/head-contour/model.json), checked against what core's measurement expects.
import { QUALITY_REASONS, type HeadContourCard } from "@crown/core/measurement/index";

export type ModelCard = HeadContourCard & Readonly<Record<string, unknown>>;

export const OUTPUT_NAMES = ["mask", "nose", "sticker", "quality"] as const;

/** Refuse a model whose reasons or sizes do not match the code that reads its outputs. */
export const checkModelCard = (value: unknown, source: string): ModelCard => {
  const card = value as Partial<HeadContourCard> | null;
  if (!card || typeof card !== "object") throw new Error(`${source}: model.json is not an object`);
  if (!Number.isInteger(card.input_size) || card.input_size! < 16) throw new Error(`${source}: model.json has no valid input_size`);
  if (!Array.isArray(card.reasons) || card.reasons.length !== QUALITY_REASONS.length || card.reasons.some((r, i) => r !== QUALITY_REASONS[i])) {
    throw new Error(`${source}: model.json's reasons differ from the quality reasons in core/measurement`);
  }
  if (!(typeof card.sticker_diameter_mm === "number" && card.sticker_diameter_mm > 0)) {
    throw new Error(`${source}: model.json has no valid sticker_diameter_mm`);
  }
  if (card.measure_views !== undefined && ![1, 2, 4, 8].includes(card.measure_views)) {
    throw new Error(`${source}: model.json's measure_views must be 1, 2, 4 or 8`);
  }
  return card as ModelCard;
};

/**
 * The analysis options a model card implies. Measuring a photo (server, `crown analyze`) averages
 * the card's views of the close-up; judging live camera frames (the browser's Web Worker) looks once,
 * so a frame is judged within the frame budget.
 */
export const analyzeOptionsFrom = (card: HeadContourCard, use: "measure" | "live" = "measure") => ({
  inputSize: card.input_size,
  stickerDiameterMm: card.sticker_diameter_mm,
  closeUpViews: use === "live" ? 1 : (card.measure_views ?? 1),
});
