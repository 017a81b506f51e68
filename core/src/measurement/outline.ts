// Post-processing of the model's maps: probabilities, the largest region, and its sub-pixel outline.
import type { Box, Point } from "./image.ts";

/** A single-channel map, row-major, e.g. one output of the model for one image. */
export interface ProbabilityMap {
  readonly width: number;
  readonly height: number;
  readonly data: Float32Array;
}

export const sigmoid = (logit: number): number =>
  logit >= 0 ? 1 / (1 + Math.exp(-logit)) : Math.exp(logit) / (1 + Math.exp(logit));

export const sigmoidMap = (logits: Float32Array, width: number, height: number): ProbabilityMap => {
  const data = new Float32Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = sigmoid(logits[i]!);
  return { width, height, data };
};

/** A connected region of pixels at or above a level, as a per-pixel membership mask. */
export interface Region {
  readonly width: number;
  readonly height: number;
  readonly member: Uint8Array;
  readonly area: number;
  /** Pixel bounds, in map coordinates (pixel i covers [i, i + 1)). */
  readonly bounds: Box;
}

/** The raw logits of one output, as a map whose level 0 is probability 0.5. */
export const logitMap = (logits: Float32Array, width: number, height: number): ProbabilityMap => ({ width, height, data: logits });

/**
 * The largest 4-connected region of pixels with value ≥ level (probability ≥ 0.5, or logit ≥ 0),
 * or null if there is none.
 * Ears, hands or stray blobs the model half-believes are head end up in smaller regions.
 */
export const largestRegion = (map: ProbabilityMap, level = 0.5): Region | null => {
  const { width, height, data } = map;
  const label = new Int32Array(width * height);
  const stack = new Int32Array(width * height);
  let best = 0;
  let bestArea = 0;
  let next = 0;
  for (let start = 0; start < data.length; start++) {
    if (label[start] !== 0 || !(data[start]! >= level)) continue;
    next++;
    let area = 0;
    let top = 0;
    stack[top++] = start;
    label[start] = next;
    while (top > 0) {
      const p = stack[--top]!;
      area++;
      const x = p % width;
      // Neighbours inline: this loop runs for every head pixel of every frame.
      if (x > 0 && label[p - 1] === 0 && data[p - 1]! >= level) {
        label[p - 1] = next;
        stack[top++] = p - 1;
      }
      if (x < width - 1 && label[p + 1] === 0 && data[p + 1]! >= level) {
        label[p + 1] = next;
        stack[top++] = p + 1;
      }
      if (p >= width && label[p - width] === 0 && data[p - width]! >= level) {
        label[p - width] = next;
        stack[top++] = p - width;
      }
      if (p + width < data.length && label[p + width] === 0 && data[p + width]! >= level) {
        label[p + width] = next;
        stack[top++] = p + width;
      }
    }
    if (area > bestArea) {
      bestArea = area;
      best = next;
    }
  }
  if (best === 0) return null;
  const member = new Uint8Array(width * height);
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let p = 0; p < label.length; p++) {
    if (label[p] !== best) continue;
    member[p] = 1;
    const x = p % width;
    const y = (p - x) / width;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return {
    width,
    height,
    member,
    area: bestArea,
    bounds: { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 },
  };
};

/** Whether the region comes within `margin` pixels of the given rectangle's edge (or beyond it). */
export const regionTouches = (region: Region, rect: Box, margin = 1): boolean => {
  const b = region.bounds;
  return (
    b.x < rect.x + margin ||
    b.y < rect.y + margin ||
    b.x + b.width > rect.x + rect.width - margin ||
    b.y + b.height > rect.y + rect.height - margin
  );
};

/** A closed polygon; the last point connects back to the first. */
export type Outline = readonly Point[];

export const polygonArea = (outline: Outline): number => {
  let twice = 0;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const a = outline[j]!;
    const b = outline[i]!;
    twice += a.x * b.y - b.x * a.y;
  }
  return twice / 2;
};

export const polygonCentroid = (outline: Outline): Point => {
  let twice = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const a = outline[j]!;
    const b = outline[i]!;
    const cross = a.x * b.y - b.x * a.y;
    twice += cross;
    cx += (a.x + b.x) * cross;
    cy += (a.y + b.y) * cross;
  }
  if (twice === 0) {
    const n = outline.length || 1;
    return { x: outline.reduce((s, p) => s + p.x, 0) / n, y: outline.reduce((s, p) => s + p.y, 0) / n };
  }
  return { x: cx / (3 * twice), y: cy / (3 * twice) };
};

/**
 * The semi-major axis of the ellipse with the polygon's area moments (its filled shape's covariance
 * about the centroid; a filled ellipse with semi-axes a >= b has variances a^2 / 4 and b^2 / 4). For
 * an ellipse it is the ellipse's own semi-major axis; for a circle, its radius.
 */
export const polygonSemiMajorAxis = (outline: Outline): number => {
  const c = polygonCentroid(outline);
  let twice = 0;
  let xx = 0;
  let yy = 0;
  let xy = 0;
  for (let i = 0, j = outline.length - 1; i < outline.length; j = i++) {
    const ax = outline[j]!.x - c.x;
    const ay = outline[j]!.y - c.y;
    const bx = outline[i]!.x - c.x;
    const by = outline[i]!.y - c.y;
    const cross = ax * by - bx * ay;
    twice += cross;
    xx += cross * (ax * ax + ax * bx + bx * bx);
    yy += cross * (ay * ay + ay * by + by * by);
    xy += cross * (ax * by + 2 * ax * ay + 2 * bx * by + bx * ay);
  }
  if (twice === 0) return 0;
  // Integrals of x^2, y^2 and xy over the shape, divided by its area (2A = twice).
  const sxx = xx / (6 * twice);
  const syy = yy / (6 * twice);
  const sxy = xy / (12 * twice);
  const larger = (sxx + syy) / 2 + Math.sqrt(((sxx - syy) / 2) ** 2 + sxy * sxy);
  return 2 * Math.sqrt(Math.max(0, larger));
};

/**
 * The sub-pixel outline of a region: marching squares on the map at `level`, with linear
 * interpolation between pixel centres. Give it the model's logits with level 0 (probability 0.5):
 * log-odds change about linearly across an edge, while probabilities jump from 0 to 1 within a
 * pixel and would snap the outline to the middle between pixel centres. Pixels of other regions are
 * treated as background so only this region's boundary is traced; the map is padded below the level
 * so the outline always closes. Returns the outer boundary (holes are ignored), in map coordinates
 * with pixel centres at i + 0.5.
 */
export const traceOutline = (map: ProbabilityMap, region: Region, level = 0.5): Outline => {
  const { width, height, data } = map;
  // Field on a grid padded by one pixel on each side.
  const W = width + 2;
  const H = height + 2;
  // Padding well below the level, whatever the map's scale.
  const field = new Float32Array(W * H).fill(Math.min(0, level) - 1 - Math.abs(level));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const v = data[p]!;
      // Inside the region: its value. Above level but another region: mirrored below the level.
      field[(y + 1) * W + x + 1] = region.member[p] ? Math.max(v, level) : v >= level ? 2 * level - v : v;
    }
  }
  const inside = (gx: number, gy: number): boolean => field[gy * W + gx]! >= level;
  // Each crossed lattice edge links to the next one along the outline (-1: none).
  // Horizontal lattice edge between (gx, gy) and (gx + 1, gy): key 2 * (gy * W + gx).
  // Vertical lattice edge between (gx, gy) and (gx, gy + 1): key 2 * (gy * W + gx) + 1.
  const next = new Int32Array(2 * W * H).fill(-1);
  const starts: number[] = [];
  const link = (from: number, to: number): void => {
    next[from] = to;
    starts.push(from);
  };
  const hKey = (gx: number, gy: number): number => 2 * (gy * W + gx);
  const vKey = (gx: number, gy: number): number => 2 * (gy * W + gx) + 1;
  // Only cells around the region can hold its boundary (padded grid = map + 1).
  const b = region.bounds;
  for (let gy = b.y; gy <= b.y + b.height; gy++) {
    for (let gx = b.x; gx <= b.x + b.width; gx++) {
      const tl = inside(gx, gy);
      const tr = inside(gx + 1, gy);
      const br = inside(gx + 1, gy + 1);
      const bl = inside(gx, gy + 1);
      const code = (tl ? 8 : 0) | (tr ? 4 : 0) | (br ? 2 : 0) | (bl ? 1 : 0);
      if (code === 0 || code === 15) continue;
      const top = hKey(gx, gy);
      const bottom = hKey(gx, gy + 1);
      const left = vKey(gx, gy);
      const right = vKey(gx + 1, gy);
      // Segments oriented with the inside on the right (clockwise in image coordinates, y down).
      switch (code) {
        case 1: link(bottom, left); break;
        case 2: link(right, bottom); break;
        case 3: link(right, left); break;
        case 4: link(top, right); break;
        case 5: {
          // Saddle: decide by the cell-centre average so the region stays 4-connected as labelled.
          const centre = (field[gy * W + gx]! + field[gy * W + gx + 1]! + field[(gy + 1) * W + gx]! + field[(gy + 1) * W + gx + 1]!) / 4;
          if (centre >= level) { link(top, left); link(bottom, right); }
          else { link(top, right); link(bottom, left); }
          break;
        }
        case 6: link(top, bottom); break;
        case 7: link(top, left); break;
        case 8: link(left, top); break;
        case 9: link(bottom, top); break;
        case 10: {
          const centre = (field[gy * W + gx]! + field[gy * W + gx + 1]! + field[(gy + 1) * W + gx]! + field[(gy + 1) * W + gx + 1]!) / 4;
          if (centre >= level) { link(left, bottom); link(right, top); }
          else { link(left, top); link(right, bottom); }
          break;
        }
        case 11: link(right, top); break;
        case 12: link(left, right); break;
        case 13: link(bottom, right); break;
        case 14: link(left, bottom); break;
      }
    }
  }
  const crossing = (key: number): Point => {
    const cell = key >> 1;
    const gx = cell % W;
    const gy = (cell - gx) / W;
    const a = field[cell]!;
    const c = key & 1 ? field[cell + W]! : field[cell + 1]!;
    const t = a === c ? 0.5 : Math.min(1, Math.max(0, (level - a) / (c - a)));
    // Padded grid index g is map pixel g - 1, whose centre is at g - 0.5.
    return key & 1 ? { x: gx - 0.5, y: gy - 0.5 + t } : { x: gx - 0.5 + t, y: gy - 0.5 };
  };
  let best: Point[] = [];
  let bestArea = 0;
  const seen = new Uint8Array(next.length);
  for (const start of starts) {
    if (seen[start]) continue;
    const loop: Point[] = [];
    let key = start;
    while (key >= 0 && !seen[key]) {
      seen[key] = 1;
      loop.push(crossing(key));
      key = next[key]!;
    }
    const area = Math.abs(polygonArea(loop));
    if (key === start && area > bestArea) {
      bestArea = area;
      best = loop;
    }
  }
  return best;
};

/** The convex hull of a set of points (Andrew's monotone chain), counter-clockwise in y-up terms. */
export const convexHull = (points: readonly Point[]): Point[] => {
  const sorted = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (sorted.length < 3) return sorted;
  const cross = (o: Point, a: Point, b: Point): number => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const half = (ordered: Point[]): Point[] => {
    const chain: Point[] = [];
    for (const p of ordered) {
      while (chain.length >= 2 && cross(chain[chain.length - 2]!, chain[chain.length - 1]!, p) <= 0) chain.pop();
      chain.push(p);
    }
    chain.pop();
    return chain;
  };
  return [...half(sorted), ...half(sorted.reverse())];
};

/**
 * Area over the area of the convex hull. A skull seen from above is nearly convex (about 0.99);
 * a hand or a finger over the head bites into the outline and lowers it.
 */
export const solidity = (outline: Outline): number => {
  const hullArea = Math.abs(polygonArea(convexHull(outline)));
  return hullArea > 0 ? Math.abs(polygonArea(outline)) / hullArea : 0;
};
