// Test-time views: the model sees a square input turned and mirrored, and its maps are turned back
// and averaged. The network was trained with these turns and mirrors, so each view is an independent
// look at the same head; averaging them steadies the outline and lets the nose tip win the vote
// where one look mistakes an ear for it.
import type { HeadContourModel, HeadContourOutputs } from "./model.ts";

/** How many of the eight turns and mirrors of a square to average: 1 (none), 2, 4 or 8. */
export type ViewCount = 1 | 2 | 4 | 8;

/**
 * The eight symmetries of a square as pixel mappings: view[y][x] = original[f(y, x)]. The order puts
 * the most different views first (the half turn, then the quarter turns), so 2 and 4 views cover the
 * square's symmetries evenly.
 */
const SYMMETRIES: readonly ((y: number, x: number, last: number) => readonly [number, number])[] = [
  (y, x) => [y, x],
  (y, x, l) => [l - y, l - x],
  (y, x, l) => [x, l - y],
  (y, x, l) => [l - x, y],
  (y, x, l) => [y, l - x],
  (y, x, l) => [l - y, x],
  (y, x) => [x, y],
  (y, x, l) => [l - x, l - y],
];

/** For each view, the index in the original plane that each view pixel reads. */
const buildIndices = (size: number, views: ViewCount): Uint32Array[] =>
  SYMMETRIES.slice(0, views).map((f) => {
    const index = new Uint32Array(size * size);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const [sy, sx] = f(y, x, size - 1);
        index[y * size + x] = sy * size + sx;
      }
    }
    return index;
  });

// Every photo is measured with the same size and views: build the index tables once, not per photo
// (rebuilding them per photo allocated 100,000 small arrays and kept the garbage collector busy).
const indexCache = new Map<string, Uint32Array[]>();
const viewIndices = (size: number, views: ViewCount): Uint32Array[] => {
  const key = `${size}/${views}`;
  let indices = indexCache.get(key);
  if (!indices) {
    indices = buildIndices(size, views);
    indexCache.set(key, indices);
  }
  return indices;
};

/**
 * A model that runs each square input in `views` orientations in one batch and returns, per input,
 * the maps turned back and averaged (as logits) and the averaged quality logits. With one view it is
 * the model itself.
 */
export const withViews = (model: HeadContourModel, size: number, views: ViewCount): HeadContourModel => {
  if (views === 1) return model;
  const indices = viewIndices(size, views);
  const plane = size * size;
  const share = 1 / views;
  return {
    async run(input: Float32Array, n: number): Promise<HeadContourOutputs> {
      const batch = new Float32Array(n * views * 3 * plane);
      for (let b = 0; b < n; b++) {
        for (let v = 0; v < views; v++) {
          const index = indices[v]!;
          for (let c = 0; c < 3; c++) {
            const from = input.subarray((b * 3 + c) * plane, (b * 3 + c + 1) * plane);
            const to = batch.subarray(((b * views + v) * 3 + c) * plane, ((b * views + v) * 3 + c + 1) * plane);
            for (let i = 0; i < plane; i++) to[i] = from[index[i]!]!;
          }
        }
      }
      const out = await model.run(batch, n * views);
      const turnBack = (maps: Float32Array): Float32Array => {
        const mean = new Float32Array(n * plane);
        for (let b = 0; b < n; b++) {
          const target = mean.subarray(b * plane, (b + 1) * plane);
          for (let v = 0; v < views; v++) {
            const index = indices[v]!;
            const from = maps.subarray((b * views + v) * plane, (b * views + v + 1) * plane);
            for (let i = 0; i < plane; i++) target[index[i]!]! += from[i]! * share;
          }
        }
        return mean;
      };
      const reasons = out.quality.length / (n * views);
      const quality = new Float32Array(n * reasons);
      for (let b = 0; b < n; b++) {
        for (let v = 0; v < views; v++) {
          for (let r = 0; r < reasons; r++) quality[b * reasons + r]! += out.quality[(b * views + v) * reasons + r]! * share;
        }
      }
      return { mask: turnBack(out.mask), nose: turnBack(out.nose), sticker: turnBack(out.sticker), quality, viewQuality: out.quality };
    },
  };
};
