import type { Point } from "../measurement/image.ts";

/** A head outline drawn analytically: semi-axes along the AP axis (`halfLength`) and across it. */
export interface AnalyticHead {
  readonly halfLength: number;
  readonly halfWidth: number;
  /** Lateral shear per unit of AP position: the parallelogram of plagiocephaly. */
  readonly shear: number;
  readonly rotation: number;
  readonly cx: number;
  readonly cy: number;
}

/**
 * Outline (`points` points) and nose tip in image coordinates; the nose sits just beyond the forehead
 * on the AP axis. `bump(t)` scales the radius at the ellipse's parameter angle t (an ear, a bite).
 */
export const drawHead = (
  s: AnalyticHead,
  options: { readonly points?: number; readonly bump?: (t: number) => number } = {},
): { outline: Point[]; nose: Point } => {
  const points = options.points ?? 1440;
  const place = (across: number, along: number, shear = s.shear): Point => {
    // Head frame: AP axis points "up" (negative y in the image) before rotation.
    const x = across + shear * along;
    const y = -along;
    const c = Math.cos(s.rotation);
    const d = Math.sin(s.rotation);
    return { x: s.cx + x * c - y * d, y: s.cy + x * d + y * c };
  };
  const outline: Point[] = [];
  for (let i = 0; i < points; i++) {
    const t = (2 * Math.PI * i) / points;
    const grow = 1 + (options.bump?.(t) ?? 0);
    outline.push(place(s.halfWidth * Math.cos(t) * grow, s.halfLength * Math.sin(t) * grow));
  }
  // The skull shears, the face does not: the nose stays on the original AP axis.
  return { outline, nose: place(0, s.halfLength * 1.08, 0) };
};
