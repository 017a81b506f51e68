import { describe, expect, it } from "vitest";
import { DEFAULT_REASON_THRESHOLDS, judgePhoto, qualityMargin, QUALITY_REASONS } from "./verdict.ts";

const clean = { headFound: true, headTouchesFrame: false, noseFound: true };
const low = [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1];

describe("judgePhoto", () => {
  it("accepts a photo no reason flags", () => {
    expect(judgePhoto(low, clean)).toEqual({ accepted: true, reasons: [] });
  });

  it("names each reason whose probability reaches its threshold, in the quiz's words and order", () => {
    const p = [0.9, 0.1, 0.1, 0.1, 0.1, 0.5, 0.1, 0.1];
    expect(judgePhoto(p, clean)).toEqual({ accepted: false, reasons: ["Image is blurry", "Hair artifact present"] });
  });

  it("uses the thresholds as data, per reason", () => {
    const p = [0.1, 0.1, 0.1, 0.1, 0.1, 0.6, 0.1, 0.1];
    expect(judgePhoto(p, clean, { ...DEFAULT_REASON_THRESHOLDS, "Hair artifact present": 0.7 }).accepted).toBe(true);
  });

  it("rejects when the geometry finds no head, a cut-off head or no nose", () => {
    const incomplete = "Head contour is incomplete (obstructed by hand, finger, or outside the frame)";
    expect(judgePhoto(low, { ...clean, headFound: false }).reasons).toEqual([incomplete]);
    expect(judgePhoto(low, { ...clean, headTouchesFrame: true }).reasons).toEqual([incomplete]);
    expect(judgePhoto(low, { ...clean, headObstructed: true }).reasons).toEqual([incomplete]);
    expect(judgePhoto(low, { ...clean, noseFound: false }).reasons).toEqual(["No nose visible"]);
    // The model's reason and the geometry's agree: said once.
    expect(judgePhoto([0.1, 0.1, 0.9, 0.1, 0.1, 0.1, 0.1, 0.1], { ...clean, headTouchesFrame: true }).reasons).toEqual([incomplete]);
  });

  it("does not add 'No nose visible' to a back view", () => {
    const backView = [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.95];
    expect(judgePhoto(backView, { ...clean, noseFound: false }).reasons).toEqual(["No nose, back view"]);
  });

  it("refuses a quality vector of the wrong length", () => {
    expect(() => judgePhoto([0.1], clean)).toThrow(RangeError);
  });

  it("ranks photos by their worst reason", () => {
    expect(qualityMargin(low)).toBeCloseTo(0.2, 9);
    expect(qualityMargin([0.1, 0.1, 0.1, 0.45, 0.1, 0.1, 0.1, 0.1])).toBeCloseTo(0.9, 9);
    expect(QUALITY_REASONS).toHaveLength(8);
  });
});
