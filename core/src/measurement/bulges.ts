// Ears and stray hair that the mask lets into the head region sit on the vault as outward bulges,
// right where the width is measured (on rendered photos the traced outline ran 0.3–0.4 px wide on each
// side and true at the front and back). The vault's own outline seen from above is smooth: its radius
// around the centre has little beyond the sixth harmonic. A radial fit that discounts outward
// residuals follows the vault under a narrow bulge (up to about 30 degrees of the outline), and the
// outline is cut back to it; broad swellings are left to the fit, which then follows them.
// models/head-contour/geometry.py (trim_bulges) is the same procedure for evaluate.py.
import type { Point } from "./image.ts";
import { polygonArea, polygonCentroid, type Outline } from "./outline.ts";

export interface BulgeOptions {
  /** Harmonics of the radial fit (6 measured best on a tuning set of 600 renders, seed 700001). */
  readonly harmonics?: number;
  /** Outward residual, as a share of the head's radius, at which a point's weight halves. */
  readonly tolerance?: number;
  readonly iterations?: number;
}

/**
 * The outline with its outward bulges cut back to a robust low-order fit of its radius around the
 * centroid. Points inside the fit stay where they are, so a flattened side or a bite from a finger
 * is kept. Outlines too short to fit are returned unchanged.
 */
export const trimBulges = (outline: Outline, options: BulgeOptions = {}): Point[] => {
  const harmonics = options.harmonics ?? 6;
  const tolerance = options.tolerance ?? 0.015;
  const iterations = options.iterations ?? 8;
  const terms = 2 * harmonics + 1;
  const n = outline.length;
  if (n < 2 * terms) return [...outline];
  const centre = polygonCentroid(outline);
  const headRadius = Math.sqrt(Math.abs(polygonArea(outline)) / Math.PI);
  if (!(headRadius > 0)) return [...outline];

  const angle = new Float64Array(n);
  const radius = new Float64Array(n);
  const basis = new Float64Array(n * terms);
  outline.forEach((p, i) => {
    angle[i] = Math.atan2(p.y - centre.y, p.x - centre.x);
    radius[i] = Math.hypot(p.x - centre.x, p.y - centre.y);
    basis[i * terms] = 1;
    for (let k = 1; k <= harmonics; k++) {
      basis[i * terms + 2 * k - 1] = Math.cos(k * angle[i]!);
      basis[i * terms + 2 * k] = Math.sin(k * angle[i]!);
    }
  });

  const fitted = new Float64Array(n);
  const weight = new Float64Array(n).fill(1);
  for (let iteration = 0; iteration < iterations; iteration++) {
    // Weighted least squares through the normal equations (weights squared, as a row-scaled fit).
    const normal = new Float64Array(terms * terms);
    const rhs = new Float64Array(terms);
    for (let i = 0; i < n; i++) {
      const w2 = weight[i]! * weight[i]!;
      for (let a = 0; a < terms; a++) {
        const ba = basis[i * terms + a]! * w2;
        rhs[a] = rhs[a]! + ba * radius[i]!;
        for (let b = a; b < terms; b++) normal[a * terms + b] = normal[a * terms + b]! + ba * basis[i * terms + b]!;
      }
    }
    for (let a = 0; a < terms; a++) for (let b = 0; b < a; b++) normal[a * terms + b] = normal[b * terms + a]!;
    const coefficients = solve(normal, rhs, terms);
    if (!coefficients) return [...outline];
    for (let i = 0; i < n; i++) {
      let f = 0;
      for (let a = 0; a < terms; a++) f += basis[i * terms + a]! * coefficients[a]!;
      fitted[i] = f;
    }
    for (let i = 0; i < n; i++) {
      const outward = (radius[i]! - fitted[i]!) / headRadius;
      weight[i] = outward > 0 ? 1 / (1 + (outward / tolerance) ** 2) : 1;
    }
  }
  return outline.map((p, i) =>
    radius[i]! > fitted[i]! && fitted[i]! > 0
      ? { x: centre.x + Math.cos(angle[i]!) * fitted[i]!, y: centre.y + Math.sin(angle[i]!) * fitted[i]! }
      : p,
  );
};

/** Gaussian elimination with partial pivoting; null for a singular system. */
const solve = (matrix: Float64Array, rhs: Float64Array, size: number): Float64Array | null => {
  const m = Float64Array.from(matrix);
  const x = Float64Array.from(rhs);
  for (let col = 0; col < size; col++) {
    let pivot = col;
    for (let row = col + 1; row < size; row++) if (Math.abs(m[row * size + col]!) > Math.abs(m[pivot * size + col]!)) pivot = row;
    if (!(Math.abs(m[pivot * size + col]!) > 1e-12)) return null;
    if (pivot !== col) {
      for (let k = 0; k < size; k++) [m[col * size + k], m[pivot * size + k]] = [m[pivot * size + k]!, m[col * size + k]!];
      [x[col], x[pivot]] = [x[pivot]!, x[col]!];
    }
    for (let row = col + 1; row < size; row++) {
      const factor = m[row * size + col]! / m[col * size + col]!;
      if (factor === 0) continue;
      for (let k = col; k < size; k++) m[row * size + k] = m[row * size + k]! - factor * m[col * size + k]!;
      x[row] = x[row]! - factor * x[col]!;
    }
  }
  for (let row = size - 1; row >= 0; row--) {
    let sum = x[row]!;
    for (let k = row + 1; k < size; k++) sum -= m[row * size + k]! * x[k]!;
    x[row] = sum / m[row * size + row]!;
  }
  return x;
};
