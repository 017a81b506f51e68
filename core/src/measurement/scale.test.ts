import { describe, expect, it } from "vitest";
import { cvaMillimetres } from "./geometry.ts";
import { CAMERA_TO_STICKER_MM, sectionMillimetresPerPixel, VAULT_HEIGHT_SHARE } from "./scale.ts";

/** A pinhole photo of a head whose section lies h = VAULT_HEIGHT_SHARE x half-length below its sticker. */
const photograph = (halfLengthMm: number, diagonalsMm: { a: number; b: number }, focalPx = 800, distanceMm = CAMERA_TO_STICKER_MM) => {
  const h = VAULT_HEIGHT_SHARE * halfLengthMm;
  const atSection = focalPx / (distanceMm + h);
  const ends = { a: [{ x: 0, y: 0 }, { x: 0, y: 0 }] as const, b: [{ x: 0, y: 0 }, { x: 0, y: 0 }] as const };
  return {
    stickerPx: (focalPx * 30) / distanceMm,
    geometry: { length: 2 * halfLengthMm * atSection, diagonals: { a: diagonalsMm.a * atSection, b: diagonalsMm.b * atSection, endpoints: ends } },
  };
};

describe("CVA in millimetres at the widest section", () => {
  it("gives a pinhole photo's true CVA when the camera is where the model says", () => {
    for (const halfLength of [60, 75, 85]) {
      const { stickerPx, geometry } = photograph(halfLength, { a: 140, b: 131 });
      expect(cvaMillimetres(geometry, stickerPx, 30)).toBeCloseTo(9, 6);
    }
  });

  it("stays within 9 % when the phone is anywhere from 250 to 550 mm above the sticker", () => {
    for (const distance of [250, 300, 400, 500, 550]) {
      const { stickerPx, geometry } = photograph(75, { a: 140, b: 130 }, 900, distance);
      const cva = cvaMillimetres(geometry, stickerPx, 30)!;
      expect(Math.abs(cva / 10 - 1)).toBeLessThan(0.09);
    }
  });

  it("is larger than the sticker's own scale (the section is farther away) and omitted without a sticker", () => {
    expect(sectionMillimetresPerPixel(60, 30, 300)!).toBeGreaterThan(0.5);
    expect(sectionMillimetresPerPixel(null, 30, 300)).toBeNull();
    expect(sectionMillimetresPerPixel(0, 30, 300)).toBeNull();
    // a head whose height would reach the camera is no photo from a phone
    expect(sectionMillimetresPerPixel(1, 30, 100)).toBeNull();
  });
});
