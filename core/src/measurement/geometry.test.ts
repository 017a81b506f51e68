import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { chordThrough, cvaMillimetres, measureHead } from "./geometry.ts";
import type { Point } from "./image.ts";
import { drawHead, type AnalyticHead } from "../testing/heads.ts";

const draw = (s: AnalyticHead) => drawHead(s);

const shapes = fc.record({
  halfLength: fc.double({ min: 20, max: 2000, noNaN: true }),
  ratio: fc.double({ min: 0.65, max: 1.05, noNaN: true }),
  rotation: fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
  cx: fc.double({ min: -5000, max: 5000, noNaN: true }),
  cy: fc.double({ min: -5000, max: 5000, noNaN: true }),
});

describe("measureHead on analytic shapes", () => {
  test.prop([shapes])("an ellipse gives its exact CI and a CVAI of 0 at any rotation, scale and position", (s) => {
    const shape = { ...s, halfWidth: s.halfLength * s.ratio, shear: 0 };
    const { outline, nose } = draw(shape);
    const m = measureHead(outline, nose);
    expect(m).not.toBeNull();
    expect(Math.abs(m!.ci - 100 * s.ratio)).toBeLessThan(0.3);
    expect(m!.cvai).toBeLessThan(0.05);
    expect(Math.hypot(m!.centre.x - s.cx, m!.centre.y - s.cy)).toBeLessThan(1e-3 * s.halfLength);
    expect(m!.length).toBeCloseTo(2 * s.halfLength, 0);
  });

  test.prop([shapes, fc.double({ min: 0, max: 0.4, noNaN: true }), fc.double({ min: -Math.PI, max: Math.PI, noNaN: true })])(
    "mirroring a shape keeps its CVAI and CI",
    (s, shear, mirrorAngle) => {
      const { outline, nose } = draw({ ...s, halfWidth: s.halfLength * s.ratio, shear });
      // Reflect across a line through the origin at `mirrorAngle`.
      const c = Math.cos(2 * mirrorAngle);
      const d = Math.sin(2 * mirrorAngle);
      const mirror = (p: Point): Point => ({ x: p.x * c + p.y * d, y: p.x * d - p.y * c });
      const original = measureHead(outline, nose)!;
      const mirrored = measureHead(outline.map(mirror), mirror(nose))!;
      expect(mirrored.cvai).toBeCloseTo(original.cvai, 6);
      expect(mirrored.ci).toBeCloseTo(original.ci, 6);
    },
  );

  test.prop([shapes, fc.double({ min: 0, max: 0.5, noNaN: true }), fc.double({ min: 0.01, max: 0.1, noNaN: true })])(
    "a parallelogram deformation raises CVAI monotonically",
    (s, shear, step) => {
      const base = { ...s, halfWidth: s.halfLength * s.ratio };
      const less = measureHead(...args(draw({ ...base, shear })))!;
      const more = measureHead(...args(draw({ ...base, shear: shear + step })))!;
      expect(more.cvai).toBeGreaterThan(less.cvai);
    },
  );

  it("measures a known plagiocephalic shape by hand", () => {
    // A circle of radius 100 sheared by 0.2: diagonals computed independently below.
    const { outline, nose } = draw({ halfLength: 100, halfWidth: 100, shear: 0.2, rotation: 0, cx: 0, cy: 0 });
    const m = measureHead(outline, nose)!;
    // Chord at angle φ from the AP axis through the centre of the sheared circle.
    const chord = (phi: number): number => {
      // Direction in head frame (across, along): (sin φ, cos φ); points p = t·dir satisfy
      // (across − shear·along)² + along² = 100².
      const a = Math.sin(phi) - 0.2 * Math.cos(phi);
      const b = Math.cos(phi);
      return (2 * 100) / Math.hypot(a, b);
    };
    const plus = chord(Math.PI / 6);
    const minus = chord(-Math.PI / 6);
    const a = Math.max(plus, minus);
    const b = Math.min(plus, minus);
    expect(m.diagonals.a).toBeCloseTo(a, 1);
    expect(m.diagonals.b).toBeCloseTo(b, 1);
    expect(m.cvai).toBeCloseTo((100 * (a - b)) / a, 2);
    // Shear keeps the AP extent and widens the lateral one: W = 2·100·√(1 + 0.2²).
    expect(m.width).toBeCloseTo(200 * Math.hypot(1, 0.2), 1);
    expect(m.length).toBeCloseTo(200, 1);
  });

  it("finds chords of a coarse polygon exactly", () => {
    const square = [{ x: -1, y: -1 }, { x: 1, y: -1 }, { x: 1, y: 1 }, { x: -1, y: 1 }];
    const angle = Math.PI / 6;
    const [back, front] = chordThrough(square, { x: 0, y: 0 }, { x: Math.cos(angle), y: Math.sin(angle) })!;
    expect(front.x).toBeCloseTo(1, 12);
    expect(front.y).toBeCloseTo(Math.tan(angle), 12);
    expect(back.x).toBeCloseTo(-1, 12);
    // Off-centre origin: the chord still ends on the polygon.
    const [b2, f2] = chordThrough(square, { x: 0.5, y: 0.2 }, { x: 0, y: 1 })!;
    expect([b2.y, f2.y]).toEqual([-1, 1]);
    expect(chordThrough(square, { x: 3, y: 0 }, { x: 0, y: 1 })).toBeNull();
  });

  it("gives CVA in millimetres only with a sticker", () => {
    const diagonals = { a: 130, b: 120, endpoints: { a: [{ x: 0, y: 0 }, { x: 0, y: 0 }] as const, b: [{ x: 0, y: 0 }, { x: 0, y: 0 }] as const } };
    // 0.5 mm a pixel at the sticker; the 300-px section lies 0.8 x 75 mm = 60 mm lower: x 460 / 400
    expect(cvaMillimetres({ diagonals, length: 300 }, 60, 30)).toBeCloseTo(5 / (1 - (0.5 * 0.8 * 300) / 800), 9);
    expect(cvaMillimetres({ diagonals, length: 300 }, null, 30)).toBeNull();
  });

  it("refuses a nose at the head centre", () => {
    const { outline } = draw({ halfLength: 100, halfWidth: 80, shear: 0, rotation: 0, cx: 0, cy: 0 });
    expect(measureHead(outline, { x: 0, y: 0 })).toBeNull();
    expect(measureHead(outline.slice(0, 2), { x: 0, y: -120 })).toBeNull();
  });
});

const args = (d: { outline: Point[]; nose: Point }): [Point[], Point] => [d.outline, d.nose];
