import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { cropAround, letterbox, photoRectInInput, toInput, toPhoto, type RgbImage } from "./image.ts";

const solid = (width: number, height: number, rgb: [number, number, number], channels: 3 | 4 = 3): RgbImage => {
  const data = new Uint8Array(width * height * channels);
  for (let p = 0; p < width * height; p++) {
    data.set(rgb, p * channels);
    if (channels === 4) data[p * channels + 3] = 255;
  }
  return { width, height, data, channels };
};

const at = (tensor: Float32Array, size: number, c: number, x: number, y: number): number => tensor[c * size * size + y * size + x]!;

describe("letterbox", () => {
  it("keeps the aspect, centres the photo and pads with 0", () => {
    const { tensor, transform } = letterbox(solid(400, 200, [255, 128, 0]), 100);
    expect(tensor.length).toBe(3 * 100 * 100);
    expect(transform.scale).toBe(4);
    // Rows 0-24 and 75-99 are padding; the photo fills rows 25-74.
    expect(at(tensor, 100, 0, 50, 10)).toBe(0);
    expect(at(tensor, 100, 0, 50, 90)).toBe(0);
    expect(at(tensor, 100, 0, 50, 50)).toBeCloseTo(1, 5);
    expect(at(tensor, 100, 1, 0, 25)).toBeCloseTo(128 / 255, 5);
    expect(at(tensor, 100, 2, 99, 74)).toBe(0);
    expect(photoRectInInput(transform, { width: 400, height: 200 })).toEqual({ x: 0, y: 25, width: 100, height: 50 });
  });

  it("reads RGBA frames (canvas ImageData) the same as RGB", () => {
    const a = letterbox(solid(30, 50, [10, 200, 90], 3), 32).tensor;
    const b = letterbox(solid(30, 50, [10, 200, 90], 4), 32).tensor;
    expect(b).toEqual(a);
  });

  it("averages the footprint when shrinking, so a fine checkerboard turns grey", () => {
    const w = 64;
    const data = new Uint8Array(w * w * 3);
    for (let y = 0; y < w; y++) for (let x = 0; x < w; x++) data.fill((x + y) % 2 ? 255 : 0, (y * w + x) * 3, (y * w + x) * 3 + 3);
    const { tensor } = letterbox({ width: w, height: w, data, channels: 3 }, 16);
    for (const v of tensor) expect(v).toBeCloseTo(0.5, 5);
  });

  test.prop([fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 3000 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })])(
    "maps input points back to the photo point they were sampled from",
    (width, height, u, v) => {
      const transform = letterbox(solid(Math.min(width, 40), Math.min(height, 40), [0, 0, 0]), 160).transform;
      const photo = { x: u * Math.min(width, 40), y: v * Math.min(height, 40) };
      const back = toPhoto(transform, toInput(transform, photo));
      expect(back.x).toBeCloseTo(photo.x, 9);
      expect(back.y).toBeCloseTo(photo.y, 9);
      // The photo's corners land on the edges of its rectangle in the input.
      const rect = photoRectInInput(transform, { width: Math.min(width, 40), height: Math.min(height, 40) });
      expect(Math.min(rect.x, rect.y)).toBeCloseTo(0, 9);
      expect(Math.max(rect.x + rect.width, rect.y + rect.height)).toBeCloseTo(160, 9);
    },
  );

  it("puts a marked pixel where the transform says", () => {
    const image = solid(800, 600, [0, 0, 0]);
    // A 10 × 10 white square centred on photo (505, 205).
    for (let y = 200; y < 210; y++) for (let x = 500; x < 510; x++) image.data.fill(255, (y * 800 + x) * 3, (y * 800 + x) * 3 + 3);
    const { tensor, transform } = letterbox(image, 160);
    const expected = toInput(transform, { x: 505, y: 205 });
    let sum = 0;
    let sx = 0;
    let sy = 0;
    for (let y = 0; y < 160; y++) for (let x = 0; x < 160; x++) {
      const v = at(tensor, 160, 0, x, y);
      sum += v;
      sx += v * (x + 0.5);
      sy += v * (y + 0.5);
    }
    expect(sx / sum).toBeCloseTo(expected.x, 6);
    expect(sy / sum).toBeCloseTo(expected.y, 6);
  });
});

describe("cropAround", () => {
  it("crops a square around the box and pads outside the photo with 0", () => {
    const image = solid(100, 100, [255, 255, 255]);
    // A box whose square (side 40) hangs 10 px off the photo's left edge.
    const { tensor, transform } = cropAround(image, { x: -10, y: 30, width: 40, height: 20 }, 40);
    expect(transform).toEqual({ scale: 1, offsetX: -10, offsetY: 20, size: 40 });
    expect(at(tensor, 40, 0, 5, 20)).toBe(0);
    expect(at(tensor, 40, 0, 15, 20)).toBeCloseTo(1, 6);
    expect(toPhoto(transform, { x: 20, y: 20 })).toEqual({ x: 10, y: 40 });
  });

  it("enlarges small crops by interpolation", () => {
    const image = solid(8, 8, [0, 0, 0]);
    image.data.fill(255, 0, 4 * 8 * 3); // top half white
    const { tensor } = cropAround(image, { x: 0, y: 0, width: 8, height: 8 }, 32);
    expect(at(tensor, 32, 0, 10, 2)).toBeCloseTo(1, 6);
    expect(at(tensor, 32, 0, 10, 29)).toBeCloseTo(0, 6);
    // Across the edge the values ramp rather than jump.
    const ramp = [14, 15, 16, 17].map((y) => at(tensor, 32, 0, 10, y));
    expect(ramp[0]).toBeGreaterThan(ramp[1]!);
    expect(ramp[1]).toBeGreaterThan(ramp[2]!);
    expect(ramp[2]).toBeGreaterThan(ramp[3]!);
  });
});
