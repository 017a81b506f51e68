// A reviewer's correction of the model's outline: the edits the review console offers, the rules a
// corrected outline must keep, and its figures. Plain (no Effect, no framework): the browser measures
// with these same functions while the reviewer edits, and the server re-measures with them when it
// keeps the correction, so the figures on screen are the figures stored.
import { cvaMillimetres, type HeadGeometry, measureHead } from "./geometry.ts";
import type { Point } from "./image.ts";
import type { Outline } from "./outline.ts";

/** The figures of an outline and a nose tip; null when the head cannot be measured that way. */
export interface CorrectedFigures {
  readonly head: HeadGeometry;
  readonly ci: number;
  readonly cvai: number;
  /** Only when the photo's sticker gives the scale (never guessed). */
  readonly cvaMm: number | null;
}

/** The sticker as the model found it: its circle in photo pixels. */
export type StickerCircle = { readonly centre: Point; readonly radius: number } | null;

/** Measures an outline with core's geometry, exactly as the analysis does (analyze.ts). */
export const remeasure = (outline: Outline, noseTip: Point | null, sticker: StickerCircle, stickerDiameterMm: number): CorrectedFigures | null => {
  if (noseTip === null || outline.length < 3) return null;
  const head = measureHead(outline, noseTip);
  if (head === null) return null;
  return { head, ci: head.ci, cvai: head.cvai, cvaMm: cvaMillimetres(head, sticker ? 2 * sticker.radius : null, stickerDiameterMm) };
};

/** What a kept outline may be: enough points to be a head, few enough to check, inside the photo. */
export const OUTLINE_LIMITS = {
  minPoints: 6,
  maxPoints: 2000,
  /** How far past the photo's edge a point may lie, as a share of its size (a head cut by the frame). */
  margin: 0.05,
  /** How many handles the console offers on the model's outline. */
  handles: 24,
  /** The fewest handles left after removing points. */
  minHandles: 6,
} as const;

export type OutlineProblem = "tooFew" | "tooMany" | "outside" | "crossing";

const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);

/** Whether segments ab and cd cross at a point inside both (touching ends of neighbours do not count). */
const segmentsCross = (a: Point, b: Point, c: Point, d: Point) => {
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
};

/**
 * Why an outline cannot be kept, or null: a head's outline is one closed line that never crosses
 * itself (a crossing would make "inside" ambiguous for the training set), inside the photo.
 */
export const outlineProblem = (outline: Outline, size: { readonly width: number; readonly height: number }): OutlineProblem | null => {
  const n = outline.length;
  if (n < OUTLINE_LIMITS.minPoints) return "tooFew";
  if (n > OUTLINE_LIMITS.maxPoints) return "tooMany";
  const mx = size.width * OUTLINE_LIMITS.margin;
  const my = size.height * OUTLINE_LIMITS.margin;
  for (const p of outline) {
    if (!Number.isFinite(p.x) || !Number.isFinite(p.y) || p.x < -mx || p.y < -my || p.x > size.width + mx || p.y > size.height + my) return "outside";
  }
  for (let i = 0; i < n; i++) {
    const a = outline[i]!;
    const b = outline[(i + 1) % n]!;
    // Edges i and j share no end when j is at least two steps on (and not the edge before i).
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      if (segmentsCross(a, b, outline[j]!, outline[(j + 1) % n]!)) return "crossing";
    }
  }
  return null;
};

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** Indices of `count` outline points spread evenly along its length: the handles the reviewer moves. */
export const handlesOf = (outline: Outline, count: number = OUTLINE_LIMITS.handles): number[] => {
  const n = outline.length;
  if (n <= count) return outline.map((_, i) => i);
  const along: number[] = [0];
  for (let i = 1; i <= n; i++) along.push(along[i - 1]! + distance(outline[i - 1]!, outline[i % n]!));
  const total = along[n]!;
  const handles: number[] = [];
  let i = 0;
  for (let k = 0; k < count; k++) {
    const target = (total * k) / count;
    while (i < n - 1 && along[i + 1]! <= target) i++;
    if (handles[handles.length - 1] !== i) handles.push(i);
  }
  return handles;
};

/** The indices from `from` to `to` going forwards round the outline, both excluded. */
const between = (n: number, from: number, to: number): number[] => {
  const out: number[] = [];
  for (let i = (from + 1) % n; i !== to; i = (i + 1) % n) out.push(i);
  return out;
};

/**
 * Moves handle `h` to `to`; the points between it and its neighbouring handles follow with a weight
 * falling linearly to nothing at those handles, so the stretch bends smoothly instead of spiking.
 */
export const moveHandle = (outline: Outline, handles: ReadonlyArray<number>, h: number, to: Point): Point[] => {
  const n = outline.length;
  const at = handles[h]!;
  const from = outline[at]!;
  const d = { x: to.x - from.x, y: to.y - from.y };
  const next = [...outline];
  next[at] = { x: to.x, y: to.y };
  if (handles.length < 2) return next;
  const before = handles[(h - 1 + handles.length) % handles.length]!;
  const after = handles[(h + 1) % handles.length]!;
  const bend = (stretch: number[], towards: boolean) => {
    const m = stretch.length + 1;
    stretch.forEach((i, k) => {
      const w = towards ? (k + 1) / m : 1 - (k + 1) / m;
      next[i] = { x: outline[i]!.x + d.x * w, y: outline[i]!.y + d.y * w };
    });
  };
  bend(between(n, before, at), true);
  bend(between(n, at, after), false);
  return next;
};

/**
 * Adds a handle after handle `h`, half-way along the outline to the next one (a new point on the
 * segment there when no point lies between them). Returns the outline and the handles.
 */
export const addHandle = (outline: Outline, handles: ReadonlyArray<number>, h: number): { outline: Point[]; handles: number[] } => {
  const n = outline.length;
  const at = handles[h]!;
  const after = handles[(h + 1) % handles.length]!;
  const stretch = between(n, at, after);
  if (stretch.length > 0) {
    const middle = stretch[Math.floor(stretch.length / 2)]!;
    return { outline: [...outline], handles: [...handles.slice(0, h + 1), middle, ...handles.slice(h + 1)].sort((a, b) => a - b) };
  }
  const a = outline[at]!;
  const b = outline[after]!;
  const point = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  // Insert after `at`; every index past it moves one on.
  const next = [...outline.slice(0, at + 1), point, ...outline.slice(at + 1)];
  const shifted = handles.map((i) => (i > at ? i + 1 : i));
  return { outline: next, handles: [...shifted, at + 1].sort((x, y) => x - y) };
};

/**
 * Removes handle `h`: the outline runs straight from the handle before to the one after (the points
 * between them go). Refused (unchanged) below OUTLINE_LIMITS.minHandles handles.
 */
export const removeHandle = (outline: Outline, handles: ReadonlyArray<number>, h: number): { outline: Point[]; handles: number[] } => {
  if (handles.length <= OUTLINE_LIMITS.minHandles) return { outline: [...outline], handles: [...handles] };
  const n = outline.length;
  const before = handles[(h - 1 + handles.length) % handles.length]!;
  const after = handles[(h + 1) % handles.length]!;
  const gone = new Set(between(n, before, after));
  const kept: Point[] = [];
  const newIndex = new Map<number, number>();
  outline.forEach((p, i) => {
    if (gone.has(i)) return;
    newIndex.set(i, kept.length);
    kept.push(p);
  });
  return { outline: kept, handles: handles.filter((_, k) => k !== h).map((i) => newIndex.get(i)!) };
};

const nearestIndex = (outline: Outline, p: Point) => {
  let best = 0;
  let bestDistance = Infinity;
  outline.forEach((q, i) => {
    const d = distance(p, q);
    if (d < bestDistance) {
      bestDistance = d;
      best = i;
    }
  });
  return best;
};

/** Drops points of a drawn path closer than `step` to the last one kept (a pointer gives many). */
export const thinPath = (path: ReadonlyArray<Point>, step: number): Point[] => {
  const out: Point[] = [];
  for (const p of path) if (out.length === 0 || distance(out[out.length - 1]!, p) >= step) out.push({ x: p.x, y: p.y });
  return out;
};

/**
 * Replaces the stretch of the outline between the points nearest the drawn path's two ends with the
 * path: of the two ways round between them, the one the path runs beside (its middle is nearer the
 * path's middle). A path drawn on a photo with no outline becomes the outline.
 */
export const redrawStretch = (outline: Outline, path: ReadonlyArray<Point>): Point[] => {
  if (path.length < 2) return [...outline];
  if (outline.length < 3) return [...path];
  const n = outline.length;
  const start = nearestIndex(outline, path[0]!);
  const end = nearestIndex(outline, path[path.length - 1]!);
  if (start === end) return [...outline];
  const mid = path[Math.floor(path.length / 2)]!;
  const forward = between(n, start, end); // replaced when going start → end forwards
  const backward = between(n, end, start);
  const near = (stretch: number[]) => (stretch.length === 0 ? Infinity : Math.min(...stretch.map((i) => distance(outline[i]!, mid))));
  // Keep the other way round, then the path, in the outline's direction.
  if (near(forward) <= near(backward)) {
    return [...path, ...backward.map((i) => outline[i]!)];
  }
  return [...[...path].reverse(), ...forward.map((i) => outline[i]!)];
};

/** A starting outline for a photo the model found no head in: an ellipse in the photo's middle. */
export const startingOutline = (size: { readonly width: number; readonly height: number }, points: number = OUTLINE_LIMITS.handles): Point[] => {
  const c = { x: size.width / 2, y: size.height / 2 };
  const rx = size.width * 0.25;
  const ry = size.height * 0.3;
  return Array.from({ length: points }, (_, k) => {
    const a = (2 * Math.PI * k) / points;
    return { x: c.x + rx * Math.cos(a), y: c.y + ry * Math.sin(a) };
  });
};
