// Pre-processing: turn a photo into the model's square input, and remember how to map back.

/** A decoded photo or video frame, row-major, 3 (RGB) or 4 (RGBA) bytes per pixel. */
export interface RgbImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array | Uint8ClampedArray;
  readonly channels: 3 | 4;
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

/**
 * Maps model-input coordinates to photo coordinates: photo = offset + input × scale.
 * Coordinates are continuous: pixel i covers [i, i + 1), so its centre is i + 0.5.
 */
export interface InputTransform {
  readonly scale: number;
  readonly offsetX: number;
  readonly offsetY: number;
  readonly size: number;
}

/** The model input for one image: float32 NCHW [1, 3, size, size], RGB in [0, 1]. */
export interface ModelInput {
  readonly tensor: Float32Array;
  readonly transform: InputTransform;
}

/** An axis-aligned box in photo pixels. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export const toPhoto = (t: InputTransform, p: Point): Point => ({
  x: t.offsetX + p.x * t.scale,
  y: t.offsetY + p.y * t.scale,
});

export const toInput = (t: InputTransform, p: Point): Point => ({
  x: (p.x - t.offsetX) / t.scale,
  y: (p.y - t.offsetY) / t.scale,
});

/** The photo's own rectangle, in model-input coordinates (the rest is letterbox padding). */
export const photoRectInInput = (t: InputTransform, image: { width: number; height: number }): Box => {
  const topLeft = toInput(t, { x: 0, y: 0 });
  return { x: topLeft.x, y: topLeft.y, width: image.width / t.scale, height: image.height / t.scale };
};

/**
 * Resize the whole photo into a size × size square, aspect kept, centred, padding 0.
 */
export const letterbox = (image: RgbImage, size: number): ModelInput => {
  assertImage(image);
  const scale = Math.max(image.width, image.height) / size;
  const transform: InputTransform = {
    scale,
    offsetX: (image.width - size * scale) / 2,
    offsetY: (image.height - size * scale) / 2,
    size,
  };
  return { tensor: sampleSquare(image, transform), transform };
};

/**
 * A size × size view of the square box centred on `box` with side max(width, height);
 * parts of the square outside the photo are padded with 0, like the letterbox.
 */
export const cropAround = (image: RgbImage, box: Box, size: number): ModelInput => {
  assertImage(image);
  const side = Math.max(box.width, box.height);
  if (!(side > 0)) throw new RangeError("cropAround: the box must have a positive size");
  const transform: InputTransform = {
    scale: side / size,
    offsetX: box.x + box.width / 2 - side / 2,
    offsetY: box.y + box.height / 2 - side / 2,
    size,
  };
  return { tensor: sampleSquare(image, transform), transform };
};

const assertImage = (image: RgbImage): void => {
  if (image.width < 1 || image.height < 1) throw new RangeError("The image is empty");
  if (image.data.length < image.width * image.height * image.channels) {
    throw new RangeError("The image data is shorter than width × height × channels");
  }
};

interface Taps {
  readonly start: Int32Array;
  readonly count: Int32Array;
  readonly index: Int32Array;
  readonly weight: Float32Array;
}

/**
 * For each output pixel along one axis, the source pixels and weights that make it.
 * Shrinking averages the pixel's whole footprint (no aliasing on 12-megapixel photos);
 * enlarging interpolates linearly. Source pixels outside the photo count as 0 (padding).
 */
const axisTaps = (size: number, scale: number, offset: number, sourceLength: number): Taps => {
  const start = new Int32Array(size);
  const count = new Int32Array(size);
  const index: number[] = [];
  const weight: number[] = [];
  for (let i = 0; i < size; i++) {
    start[i] = index.length;
    if (scale >= 1) {
      const lo = offset + i * scale;
      const hi = lo + scale;
      const first = Math.max(0, Math.floor(lo));
      const last = Math.min(sourceLength - 1, Math.ceil(hi) - 1);
      for (let s = first; s <= last; s++) {
        const covered = Math.min(hi, s + 1) - Math.max(lo, s);
        if (covered > 0) {
          index.push(s);
          weight.push(covered / scale);
        }
      }
    } else {
      const centre = offset + (i + 0.5) * scale;
      if (centre >= 0 && centre < sourceLength) {
        const p = Math.min(Math.max(centre - 0.5, 0), sourceLength - 1);
        const s0 = Math.floor(p);
        const s1 = Math.min(s0 + 1, sourceLength - 1);
        const f = p - s0;
        index.push(s0);
        weight.push(1 - f);
        if (f > 0 && s1 !== s0) {
          index.push(s1);
          weight.push(f);
        }
      }
    }
    count[i] = index.length - start[i]!;
  }
  return { start, count, index: Int32Array.from(index), weight: Float32Array.from(weight) };
};

/** Separable resampling of the photo into the NCHW tensor described by `t`. */
const sampleSquare = (image: RgbImage, t: InputTransform): Float32Array => {
  const { size } = t;
  const { width, height, data, channels } = image;
  const xs = axisTaps(size, t.scale, t.offsetX, width);
  const ys = axisTaps(size, t.scale, t.offsetY, height);
  const plane = size * size;
  const out = new Float32Array(3 * plane);
  if (ys.index.length === 0 || xs.index.length === 0) return out;
  // Horizontal pass over the source rows some output row uses (they form one contiguous band).
  let firstRow = height;
  let lastRow = -1;
  for (const y of ys.index) {
    if (y < firstRow) firstRow = y;
    if (y > lastRow) lastRow = y;
  }
  const band = new Float32Array((lastRow - firstRow + 1) * 3 * size);
  // Byte offsets of each tap within a row, so the inner loop is one multiply-add per channel.
  const tapOffset = Int32Array.from(xs.index, (x) => x * channels);
  const { start: tapStart, count: tapCount, weight: tapWeight } = xs;
  for (let y = firstRow; y <= lastRow; y++) {
    const base = y * width * channels;
    const o = (y - firstRow) * 3 * size;
    for (let i = 0; i < size; i++) {
      let r = 0;
      let g = 0;
      let b = 0;
      const end = tapStart[i]! + tapCount[i]!;
      for (let k = tapStart[i]!; k < end; k++) {
        const w = tapWeight[k]!;
        const p = base + tapOffset[k]!;
        r += w * data[p]!;
        g += w * data[p + 1]!;
        b += w * data[p + 2]!;
      }
      band[o + i] = r;
      band[o + size + i] = g;
      band[o + 2 * size + i] = b;
    }
  }
  // Vertical pass, scaled to [0, 1].
  for (let j = 0; j < size; j++) {
    const o = j * size;
    const end = ys.start[j]! + ys.count[j]!;
    for (let k = ys.start[j]!; k < end; k++) {
      const w = ys.weight[k]! / 255;
      const row = (ys.index[k]! - firstRow) * 3 * size;
      for (let i = 0; i < size; i++) {
        out[o + i]! += w * band[row + i]!;
        out[plane + o + i]! += w * band[row + size + i]!;
        out[2 * plane + o + i]! += w * band[row + 2 * size + i]!;
      }
    }
  }
  return out;
};
