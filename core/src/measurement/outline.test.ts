import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { convexHull, largestRegion, logitMap, polygonArea, polygonCentroid, polygonSemiMajorAxis, regionTouches, sigmoid, solidity, traceOutline, type ProbabilityMap } from "./outline.ts";

/** A soft disc: probability 0.5 exactly on the circle, ramping linearly over `edge` pixels. */
const softDisc = (size: number, cx: number, cy: number, r: number, edge = 2): ProbabilityMap => {
  const data = new Float32Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
    const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy) - r;
    data[y * size + x] = Math.min(1, Math.max(0, 0.5 - d / (2 * edge)));
  }
  return { width: size, height: size, data };
};

describe("sigmoid", () => {
  it("is stable for large logits", () => {
    expect(sigmoid(0)).toBe(0.5);
    expect(sigmoid(1000)).toBe(1);
    expect(sigmoid(-1000)).toBe(0);
    expect(sigmoid(2) + sigmoid(-2)).toBeCloseTo(1, 12);
  });
});

describe("largestRegion", () => {
  it("keeps the largest 4-connected blob and its bounds", () => {
    const map = { width: 6, height: 4, data: Float32Array.from([
      1, 1, 0, 0, 0, 0,
      1, 1, 0, 1, 1, 1,
      0, 0, 1, 1, 1, 1,
      0, 0, 0, 0, 0, 0.49,
    ]) };
    const region = largestRegion(map)!;
    expect(region.area).toBe(7);
    expect(region.bounds).toEqual({ x: 2, y: 1, width: 4, height: 2 });
    expect(region.member[0]).toBe(0);
    expect(regionTouches(region, { x: 0, y: 0, width: 6, height: 4 })).toBe(true);
    expect(regionTouches(region, { x: -5, y: -5, width: 16, height: 14 })).toBe(false);
  });

  it("finds nothing in an empty map", () => {
    expect(largestRegion({ width: 3, height: 3, data: new Float32Array(9) })).toBeNull();
  });
});

describe("traceOutline (marching squares)", () => {
  test.prop([fc.double({ min: 20, max: 60, noNaN: true }), fc.double({ min: 20, max: 60, noNaN: true }), fc.double({ min: 5, max: 18, noNaN: true })])(
    "recovers a soft disc's centre and radius to a small fraction of a pixel",
    (cx, cy, r) => {
      const map = softDisc(80, cx, cy, r);
      const outline = traceOutline(map, largestRegion(map)!);
      const centre = polygonCentroid(outline);
      expect(Math.hypot(centre.x - cx, centre.y - cy)).toBeLessThan(0.02);
      expect(Math.sqrt(Math.abs(polygonArea(outline)) / Math.PI)).toBeCloseTo(r, 1);
      for (const p of outline) expect(Math.abs(Math.hypot(p.x - cx, p.y - cy) - r)).toBeLessThan(0.1);
    },
  );

  test.prop([fc.double({ min: 20, max: 60, noNaN: true }), fc.double({ min: 20, max: 60, noNaN: true }), fc.double({ min: 5, max: 18, noNaN: true })])(
    "keeps sub-pixel accuracy on steep logits, where probabilities would jump within a pixel",
    (cx, cy, r) => {
      const data = new Float32Array(80 * 80);
      for (let y = 0; y < 80; y++) for (let x = 0; x < 80; x++) data[y * 80 + x] = 12 * (r - Math.hypot(x + 0.5 - cx, y + 0.5 - cy));
      const map = logitMap(data, 80, 80);
      const outline = traceOutline(map, largestRegion(map, 0)!, 0);
      // Up to the distance function's own curvature along the lattice lines.
      for (const p of outline) expect(Math.abs(Math.hypot(p.x - cx, p.y - cy) - r)).toBeLessThan(0.03);
    },
  );

  it("traces one closed loop around a single pixel, through the half-way points", () => {
    const data = new Float32Array(9);
    data[4] = 1;
    const map = { width: 3, height: 3, data };
    const outline = traceOutline(map, largestRegion(map)!);
    expect(outline).toHaveLength(4);
    // Between the centre (1.5, 1.5) at 1 and its neighbours at 0, the 0.5 level lies half-way.
    expect(new Set(outline.map((p) => `${p.x},${p.y}`))).toEqual(new Set(["1.5,1", "1,1.5", "1.5,2", "2,1.5"]));
  });

  it("ignores other regions and holes", () => {
    const map = softDisc(60, 30, 30, 15);
    // A separate blob and a hole in the disc.
    for (let y = 2; y < 6; y++) for (let x = 2; x < 6; x++) map.data[y * 60 + x] = 1;
    for (let y = 28; y < 32; y++) for (let x = 28; x < 32; x++) map.data[y * 60 + x] = 0;
    const outline = traceOutline(map, largestRegion(map)!);
    expect(Math.sqrt(Math.abs(polygonArea(outline)) / Math.PI)).toBeCloseTo(15, 1);
    expect(outline.every((p) => p.x > 10 && p.y > 10)).toBe(true);
  });

  it("closes the outline of a region cut by the map's edge", () => {
    const map = softDisc(40, 0, 20, 10);
    const outline = traceOutline(map, largestRegion(map)!);
    expect(outline.length).toBeGreaterThan(10);
    expect(Math.min(...outline.map((p) => p.x))).toBeCloseTo(0, 0);
  });
});

describe("polygonSemiMajorAxis", () => {
  /** An ellipse as a polygon of n points, either way round. */
  const ellipse = (cx: number, cy: number, a: number, b: number, angle: number, n: number, clockwise: boolean) =>
    Array.from({ length: n }, (_, i) => {
      const t = ((clockwise ? -1 : 1) * 2 * Math.PI * i) / n;
      const x = a * Math.cos(t);
      const y = b * Math.sin(t);
      return { x: cx + x * Math.cos(angle) - y * Math.sin(angle), y: cy + x * Math.sin(angle) + y * Math.cos(angle) };
    });

  test.prop([
    fc.double({ min: -500, max: 500, noNaN: true }),
    fc.double({ min: -500, max: 500, noNaN: true }),
    fc.double({ min: 2, max: 200, noNaN: true }),
    fc.double({ min: 0.2, max: 1, noNaN: true }),
    fc.double({ min: 0, max: Math.PI, noNaN: true }),
    fc.boolean(),
  ])("is an ellipse's semi-major axis wherever it lies, however it is turned and traced", (cx, cy, a, squeeze, angle, clockwise) => {
    expect(polygonSemiMajorAxis(ellipse(cx, cy, a, a * squeeze, angle, 720, clockwise)) / a).toBeCloseTo(1, 3);
  });

  it("is a traced disc's radius, and a foreshortened disc keeps it while its area shrinks", () => {
    const size = 100;
    const data = new Float32Array(size * size);
    // A disc of radius 20 seen at 50 degrees off its axis: an ellipse 20 x 12.9, turned 30 degrees.
    const [c, s] = [Math.cos(Math.PI / 6), Math.sin(Math.PI / 6)];
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) {
      const dx = x + 0.5 - 50;
      const dy = y + 0.5 - 50;
      const u = dx * c + dy * s;
      const v = (-dx * s + dy * c) / Math.cos((50 * Math.PI) / 180);
      data[y * size + x] = Math.min(1, Math.max(0, 0.5 - (Math.hypot(u, v) - 20) / 4));
    }
    const map = { width: size, height: size, data };
    const outline = traceOutline(map, largestRegion(map)!);
    expect(polygonSemiMajorAxis(outline)).toBeCloseTo(20, 0);
    expect(Math.sqrt(Math.abs(polygonArea(outline)) / Math.PI)).toBeLessThan(17);
    const disc = traceOutline(softDisc(64, 30.3, 33.1, 14), largestRegion(softDisc(64, 30.3, 33.1, 14))!);
    expect(polygonSemiMajorAxis(disc)).toBeCloseTo(14, 1);
  });
});

describe("convexHull and solidity", () => {
  it("hulls a square with an inner point and a bite", () => {
    const square = [{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 2, y: 2 }, { x: 1, y: 1.5 }, { x: 0, y: 2 }];
    expect(convexHull(square)).toHaveLength(4);
    expect(Math.abs(polygonArea(convexHull(square)))).toBe(4);
    // The notch at (1, 1.5) removes a triangle of area 0.5.
    expect(solidity(square)).toBeCloseTo(3.5 / 4, 12);
  });

  test.prop([fc.double({ min: 0.6, max: 1.1, noNaN: true }), fc.double({ min: 0, max: Math.PI, noNaN: true })])(
    "is 1 for an ellipse, and a finger-sized bite lowers it below 0.97",
    (ratio, angle) => {
      const ellipse = Array.from({ length: 720 }, (_, i) => {
        const t = (2 * Math.PI * i) / 720;
        const [x, y] = [100 * ratio * Math.cos(t), 100 * Math.sin(t)];
        return { x: x * Math.cos(angle) - y * Math.sin(angle), y: x * Math.sin(angle) + y * Math.cos(angle) };
      });
      expect(solidity(ellipse)).toBeGreaterThan(0.999);
      // Push a 60°-wide stretch of the outline 30 % of the way towards the centre.
      const bitten = ellipse.map((p, i) => (i < 120 ? { x: p.x * 0.7, y: p.y * 0.7 } : p));
      expect(solidity(bitten)).toBeLessThan(0.97);
    },
  );
});
