import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { trimBulges } from "./bulges.ts";
import { measureHead } from "./geometry.ts";
import type { Point } from "./image.ts";
import { drawHead } from "../testing/heads.ts";

const POINTS = 720;

interface Head {
  readonly halfLength: number;
  readonly ratio: number;
  readonly shear: number;
  readonly rotation: number;
  readonly cx: number;
  readonly cy: number;
}

/** A head outline with an optional change of radius `bump(t)` (t: the ellipse's parameter angle). */
const draw = (h: Head, bump?: (t: number) => number) =>
  drawHead({ ...h, halfWidth: h.halfLength * h.ratio }, { points: POINTS, ...(bump ? { bump } : {}) });

const heads = fc.record({
  halfLength: fc.double({ min: 30, max: 1500, noNaN: true }),
  ratio: fc.double({ min: 0.68, max: 1.02, noNaN: true }),
  shear: fc.double({ min: -0.15, max: 0.15, noNaN: true }),
  rotation: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
  cx: fc.double({ min: -3000, max: 3000, noNaN: true }),
  cy: fc.double({ min: -3000, max: 3000, noNaN: true }),
});

/** An ear: a smooth outward bulge `height` (share of the radius) wide `spread` radians, at parameter angle `at`. */
const ear = (at: number, height: number, spread: number) => (t: number): number => {
  const d = Math.atan2(Math.sin(t - at), Math.cos(t - at));
  return height * Math.exp(-(d * d) / (2 * spread * spread));
};

describe("trimBulges", () => {
  test.prop([heads])("leaves a smooth head's measurement alone: CI and CVAI move by under 0.15", (h) => {
    const { outline, nose } = draw(h);
    const before = measureHead(outline, nose)!;
    const after = measureHead(trimBulges(outline), nose)!;
    expect(Math.abs(after.ci - before.ci)).toBeLessThan(0.15);
    expect(Math.abs(after.cvai - before.cvai)).toBeLessThan(0.15);
  });

  // Measured over the domain (scale does not matter): the trim leaves 30-45 % of the ear on most heads, up to 53 % on
  // its hardest corner, the longest (ratio 0.68), most sheared (0.15) head with the lowest, broadest ear (0.04, 0.09),
  // which CI's seeds 1994225395 and -841398091 shrank toward. That corner is always one of the examples.
  test.prop([heads, fc.double({ min: 0.04, max: 0.1, noNaN: true }), fc.double({ min: 0.05, max: 0.09, noNaN: true })], {
    examples: [[{ halfLength: 30, ratio: 0.68, shear: 0.15, rotation: 0, cx: 0, cy: 0 }, 0.04, 0.09]],
  })(
    "cuts a narrow bulge (an ear, up to about 30 degrees of the outline) back: at most 55 % of the width it added stays",
    (h, height, spread) => {
      const smooth = measureHead(draw(h).outline, draw(h).nose)!;
      // The ear on one side, at the widest point of the head.
      const { outline, nose } = draw(h, ear(0, height, spread));
      const traced = measureHead(outline, nose)!;
      const trimmed = measureHead(trimBulges(outline), nose)!;
      const added = traced.width - smooth.width;
      expect(added).toBeGreaterThan(0);
      expect(Math.abs(trimmed.width - smooth.width)).toBeLessThan(0.55 * added);
      expect(Math.abs(trimmed.ci - smooth.ci)).toBeLessThan(Math.abs(traced.ci - smooth.ci));
    },
  );

  it("keeps a bite from the outline (a finger over the edge) where it is", () => {
    const h: Head = { halfLength: 200, ratio: 0.85, shear: 0, rotation: 0.3, cx: 400, cy: 300 };
    const { outline } = draw(h, (t) => -ear(2, 0.06, 0.1)(t));
    const trimmed = trimBulges(outline);
    const bite = outline.findIndex((_, i) => Math.abs((2 * Math.PI * i) / POINTS - 2) < 1e-9);
    expect(trimmed[bite]).toEqual(outline[bite]);
    // Only points outside the fit move, and only inwards (towards the centroid).
    const moved = trimmed.filter((p, i) => p !== outline[i]).length;
    expect(moved).toBeLessThan(outline.length);
  });

  it("returns an outline too short to fit unchanged", () => {
    const square: Point[] = [{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 1, y: 1 }, { x: 0, y: 1 }];
    expect(trimBulges(square)).toEqual(square);
  });
});
