import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import type { HeadContourModel } from "./model.ts";
import { withViews } from "./views.ts";

const SIZE = 6;
const PLANE = SIZE * SIZE;

/** A model that reads each pixel on its own: every turn or mirror of the input turns its maps the same way. */
const pointwise: HeadContourModel & { batches: number[] } = {
  batches: [],
  async run(input, n) {
    this.batches.push(n);
    const maps = (f: (r: number, g: number, b: number) => number) => {
      const out = new Float32Array(n * PLANE);
      for (let k = 0; k < n; k++) {
        for (let i = 0; i < PLANE; i++) out[k * PLANE + i] = f(input[(k * 3) * PLANE + i]!, input[(k * 3 + 1) * PLANE + i]!, input[(k * 3 + 2) * PLANE + i]!);
      }
      return out;
    };
    return { mask: maps((r) => 4 * r - 2), nose: maps((r, g) => g - r), sticker: maps((_, __, b) => b), quality: new Float32Array(8 * n).fill(1.5) };
  },
};

/** A model that sees where a pixel is, not what it shows: its map is a left-to-right ramp. */
const ramp: HeadContourModel = {
  async run(_input, n) {
    const map = new Float32Array(n * PLANE);
    for (let k = 0; k < n; k++) for (let i = 0; i < PLANE; i++) map[k * PLANE + i] = i % SIZE;
    const quality = Float32Array.from({ length: 8 * n }, (_, j) => Math.floor(j / 8) % 2);
    return { mask: map, nose: map, sticker: map, quality };
  },
};

const image = fc.array(fc.float({ min: 0, max: 1, noNaN: true }), { minLength: 3 * PLANE, maxLength: 3 * PLANE }).map((a) => Float32Array.from(a));

describe("withViews", () => {
  test.prop([image, fc.constantFrom(2 as const, 4 as const, 8 as const)])("changes nothing for a model that reads pixels on their own", async (input, views) => {
    const plain = await pointwise.run(input, 1);
    const averaged = await withViews(pointwise, SIZE, views).run(input, 1);
    for (const key of ["mask", "nose", "sticker", "quality"] as const) {
      expect(averaged[key].length).toBe(plain[key].length);
      averaged[key].forEach((v, i) => expect(v).toBeCloseTo(plain[key][i]!, 5));
    }
  });

  it("runs all views of all inputs in one batch", async () => {
    pointwise.batches = [];
    const two = new Float32Array(2 * 3 * PLANE).map((_, i) => (i % 7) / 7);
    const out = await withViews(pointwise, SIZE, 4).run(two, 2);
    expect(pointwise.batches).toEqual([8]);
    expect(out.mask.length).toBe(2 * PLANE);
    expect(out.quality.length).toBe(16);
  });

  it("averages what each view saw, turned back", async () => {
    // The half turn sees the ramp from the other side: 0..5 and 5..0 average to 2.5 everywhere.
    const out = await withViews(ramp, SIZE, 2).run(new Float32Array(3 * PLANE), 1);
    for (const v of out.mask) expect(v).toBeCloseTo(2.5, 6);
    expect(Array.from(out.quality)).toEqual(new Array(8).fill(0.5));
    // Each view's own quality stays readable, so the verdict can see the views disagree.
    expect(Array.from(out.viewQuality!)).toEqual([...new Array(8).fill(0), ...new Array(8).fill(1)]);
    // A mirror left to right turns the ramp round too; a mirror top to bottom keeps it.
    const one = await withViews(ramp, SIZE, 1).run(new Float32Array(3 * PLANE), 1);
    expect(Array.from(one.mask.subarray(0, SIZE))).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
