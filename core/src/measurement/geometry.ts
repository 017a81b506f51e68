// The geometry of shared/spec/measurement.md: AP axis, length, width, diagonals, CI and CVAI.
import type { Point } from "./image.ts";
import { polygonCentroid, type Outline } from "./outline.ts";
import { sectionMillimetresPerPixel, type SectionScaleOptions } from "./scale.ts";

export type Segment = readonly [Point, Point];

export interface HeadGeometry {
  /** Midpoint of the AP extent (and of the width extent across it). */
  readonly centre: Point;
  /** Unit vector from the head centre towards the nose tip. */
  readonly apAxis: Point;
  /** L: the outline's extent along the AP axis. */
  readonly length: number;
  /** W: the outline's largest extent perpendicular to the AP axis. */
  readonly width: number;
  /** Back and front of the length, on the AP axis through the centre. */
  readonly lengthEnds: Segment;
  /** Left and right of the width, on the line across the AP axis through the centre. */
  readonly widthEnds: Segment;
  readonly diagonals: {
    /** The longer of the two chords at ±30° from the AP axis. */
    readonly a: number;
    /** The shorter one. */
    readonly b: number;
    readonly endpoints: { readonly a: Segment; readonly b: Segment };
  };
  /** Cranial Index, 100 × W / L. */
  readonly ci: number;
  /** Cranial Vault Asymmetry Index, 100 × (A − B) / A. */
  readonly cvai: number;
}

const DIAGONAL_ANGLE = (30 * Math.PI) / 180;

const sub = (a: Point, b: Point): Point => ({ x: a.x - b.x, y: a.y - b.y });
const add = (a: Point, b: Point): Point => ({ x: a.x + b.x, y: a.y + b.y });
const scale = (a: Point, k: number): Point => ({ x: a.x * k, y: a.y * k });
const norm = (a: Point): number => Math.hypot(a.x, a.y);
const rotate = (a: Point, angle: number): Point => ({
  x: a.x * Math.cos(angle) - a.y * Math.sin(angle),
  y: a.x * Math.sin(angle) + a.y * Math.cos(angle),
});
/** A quarter turn of u. */
const across = (u: Point): Point => ({ x: -u.y, y: u.x });

// Runs over every outline point in each step of measureHead's fixed-point iteration: no allocation.
const extent = (outline: Outline, origin: Point, direction: Point): { min: number; max: number } => {
  let min = Infinity;
  let max = -Infinity;
  for (const p of outline) {
    const s = (p.x - origin.x) * direction.x + (p.y - origin.y) * direction.y;
    if (s < min) min = s;
    if (s > max) max = s;
  }
  return { min, max };
};

/**
 * The chord of the outline along the line through `origin` in `direction`: the farthest crossings
 * on either side of the origin. Null if the line misses the outline on one side.
 */
export const chordThrough = (outline: Outline, origin: Point, direction: Point): Segment | null => {
  let forward = -Infinity;
  let backward = Infinity;
  const n = outline.length;
  for (let i = 0; i < n; i++) {
    const a = sub(outline[i]!, origin);
    const b = sub(outline[(i + 1) % n]!, origin);
    // Solve origin + t·direction = a + s·(b − a), 0 ≤ s ≤ 1.
    const e = sub(b, a);
    const denominator = direction.x * e.y - direction.y * e.x;
    if (denominator === 0) continue;
    const s = (direction.y * a.x - direction.x * a.y) / denominator;
    if (s < 0 || s > 1) continue;
    const t = (a.x * e.y - a.y * e.x) / denominator;
    if (t > forward) forward = t;
    if (t < backward) backward = t;
  }
  if (!(forward > 0) || !(backward < 0)) return null;
  return [add(origin, scale(direction, backward)), add(origin, scale(direction, forward))];
};

/**
 * Measure a head outline given the nose tip (both in the same pixel coordinates).
 * The centre and the axis depend on each other (the axis runs from the centre to the nose, the
 * centre is the middle of the extents along and across the axis), so they are iterated to a fixed
 * point starting from the outline's centroid. Null when the outline is degenerate or the nose is
 * less than half-way from the centre to the front (too close to give a direction).
 */
export const measureHead = (outline: Outline, noseTip: Point): HeadGeometry | null => {
  if (outline.length < 3) return null;
  let centre = polygonCentroid(outline);
  let axis: Point = { x: 0, y: -1 };
  let along = { min: 0, max: 0 };
  let crosswise = { min: 0, max: 0 };
  for (let iteration = 0; iteration < 100; iteration++) {
    const toNose = sub(noseTip, centre);
    const distance = norm(toNose);
    if (!(distance > 0)) return null;
    axis = scale(toNose, 1 / distance);
    along = extent(outline, centre, axis);
    crosswise = extent(outline, centre, across(axis));
    const shift = add(scale(axis, (along.min + along.max) / 2), scale(across(axis), (crosswise.min + crosswise.max) / 2));
    centre = add(centre, shift);
    if (norm(shift) <= 1e-9 * (along.max - along.min)) break;
  }
  // Final extents about the converged centre and axis.
  const toNose = sub(noseTip, centre);
  if (!(norm(toNose) > 0)) return null;
  axis = scale(toNose, 1 / norm(toNose));
  along = extent(outline, centre, axis);
  crosswise = extent(outline, centre, across(axis));
  const length = along.max - along.min;
  const width = crosswise.max - crosswise.min;
  if (!(length > 0) || !(width > 0)) return null;
  // The nose tip is near the front of the head; one close to the centre cannot give a direction.
  if (norm(toNose) < 0.25 * length) return null;

  const plus = chordThrough(outline, centre, rotate(axis, DIAGONAL_ANGLE));
  const minus = chordThrough(outline, centre, rotate(axis, -DIAGONAL_ANGLE));
  if (!plus || !minus) return null;
  const plusLength = norm(sub(plus[1], plus[0]));
  const minusLength = norm(sub(minus[1], minus[0]));
  const [a, b, aEnds, bEnds] =
    plusLength >= minusLength ? [plusLength, minusLength, plus, minus] : [minusLength, plusLength, minus, plus];

  return {
    centre,
    apAxis: axis,
    length,
    width,
    lengthEnds: [add(centre, scale(axis, along.min)), add(centre, scale(axis, along.max))],
    widthEnds: [add(centre, scale(across(axis), crosswise.min)), add(centre, scale(across(axis), crosswise.max))],
    diagonals: { a, b, endpoints: { a: aEnds, b: bEnds } },
    ci: (100 * width) / length,
    cvai: (100 * (a - b)) / a,
  };
};

/**
 * CVA in millimetres, only when the sticker gives the scale; never guessed. The scale is the one at
 * the widest section, corrected for the sticker's height above it (scale.ts).
 */
export const cvaMillimetres = (
  geometry: Pick<HeadGeometry, "diagonals" | "length">,
  stickerDiameterPx: number | null,
  stickerDiameterMm: number,
  options: SectionScaleOptions = {},
): number | null => {
  const scale = sectionMillimetresPerPixel(stickerDiameterPx, stickerDiameterMm, geometry.length, options);
  return scale === null ? null : (geometry.diagonals.a - geometry.diagonals.b) * scale;
};
