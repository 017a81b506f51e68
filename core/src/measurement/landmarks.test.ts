import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { findNoseTip, findSticker } from "./landmarks.ts";

/** A Gaussian heatmap of probabilities, as the logits a model would output for it. */
const gaussian = (size: number, cx: number, cy: number, sigma: number, peak = 0.999) => {
  const data = new Float32Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
    const p = Math.min(1 - 1e-6, Math.max(1e-6, peak * Math.exp(-((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2) / (2 * sigma * sigma))));
    data[y * size + x] = Math.log(p / (1 - p));
  }
  return { width: size, height: size, data };
};

describe("findNoseTip", () => {
  test.prop([fc.double({ min: 10, max: 150, noNaN: true }), fc.double({ min: 10, max: 150, noNaN: true })])(
    "finds a heatmap's peak to a twentieth of a pixel",
    (cx, cy) => {
      const tip = findNoseTip(gaussian(160, cx, cy, 2.5))!;
      expect(Math.abs(tip.x - cx)).toBeLessThan(0.05);
      expect(Math.abs(tip.y - cy)).toBeLessThan(0.05);
    },
  );

  it("says there is no nose when the peak is low", () => {
    expect(findNoseTip(gaussian(160, 80, 80, 2.5, 0.3))).toBeNull();
    expect(findNoseTip(gaussian(160, 80, 80, 2.5, 0.3), { presence: 0.2 })).not.toBeNull();
  });

  it("is not pulled towards a weaker second blob", () => {
    const map = gaussian(160, 40.3, 60.7, 2.5);
    const other = gaussian(160, 100, 100, 2.5, 0.9); // logits are monotonic: max of logits = max of probabilities
    for (let i = 0; i < map.data.length; i++) map.data[i] = Math.max(map.data[i]!, other.data[i]!);
    const tip = findNoseTip(map)!;
    expect(tip.x).toBeCloseTo(40.3, 1);
    expect(tip.y).toBeCloseTo(60.7, 1);
  });
});

describe("findSticker", () => {
  it("measures a disc's centre and radius", () => {
    const size = 100;
    const data = new Float32Array(size * size);
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
      const d = Math.hypot(x + 0.5 - 42.2, y + 0.5 - 57.9) - 9.4;
      data[y * size + x] = Math.min(1, Math.max(0, 0.5 - d / 3));
    }
    const disc = findSticker({ width: size, height: size, data }, 0.5)!;
    expect(disc.centre.x).toBeCloseTo(42.2, 1);
    expect(disc.centre.y).toBeCloseTo(57.9, 1);
    expect(disc.radius).toBeCloseTo(9.4, 1);
  });

  it("keeps the diameter of a sticker seen at an angle: the long axis of its ellipse", () => {
    const size = 100;
    const data = new Float32Array(size * size);
    // A 12-pixel disc tipped 40 degrees about a horizontal axis: 12 across, 9.2 high.
    const squeeze = Math.cos((40 * Math.PI) / 180);
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
      const d = Math.hypot(x + 0.5 - 50, (y + 0.5 - 40) / squeeze) - 12;
      data[y * size + x] = Math.min(1, Math.max(0, 0.5 - d / 3));
    }
    const disc = findSticker({ width: size, height: size, data }, 0.5)!;
    expect(disc.radius).toBeCloseTo(12, 0);
    expect(disc.centre.y).toBeCloseTo(40, 1);
  });

  it("finds no sticker in a blank map or a speck", () => {
    const data = new Float32Array(100);
    expect(findSticker({ width: 10, height: 10, data }, 0.5)).toBeNull();
    data[55] = 1;
    expect(findSticker({ width: 10, height: 10, data }, 0.5)).toBeNull();
  });
});
