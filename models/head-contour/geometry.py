"""Head geometry of shared/spec/measurement.md, mirroring core/src/measurement/geometry.ts.

AP axis from the head centre towards the nose tip; the centre is the midpoint of the extents along
and across the axis (iterated to a fixed point from the outline's centroid); L = extent along the
axis, W = extent across it; diagonals = chords through the centre at +-30 deg; CI = 100 W / L;
CVAI = 100 (A - B) / A.
"""
import math

import numpy as np


def polygon_centroid(poly):
    x, y = poly[:, 0], poly[:, 1]
    xs, ys = np.roll(x, 1), np.roll(y, 1)
    cross = xs * y - x * ys
    twice = cross.sum()
    if twice == 0:
        return poly.mean(axis=0)
    return np.array([((xs + x) * cross).sum() / (3 * twice), ((ys + y) * cross).sum() / (3 * twice)])


def polygon_area(poly):
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * float((np.roll(x, 1) * y - x * np.roll(y, 1)).sum())


def _extent(poly, origin, d):
    s = (poly - origin) @ d
    return float(s.min()), float(s.max())


def chord_through(poly, origin, d):
    a = poly - origin
    b = np.roll(a, -1, axis=0)
    e = b - a
    den = d[0] * e[:, 1] - d[1] * e[:, 0]
    ok = den != 0
    den = np.where(ok, den, 1.0)
    s = (a[:, 0] * d[1] - a[:, 1] * d[0]) / den
    t = (a[:, 0] * e[:, 1] - a[:, 1] * e[:, 0]) / den
    ok &= (s >= -1e-12) & (s <= 1 + 1e-12)
    if not ok.any():
        return None
    t = t[ok]
    fwd, bwd = t.max(), t.min()
    if not (fwd > 0) or not (bwd < 0):
        return None
    return float(fwd - bwd)


def _rot(v, ang):
    c, s = math.cos(ang), math.sin(ang)
    return np.array([v[0] * c - v[1] * s, v[0] * s + v[1] * c])


def measure_head(poly, nose):
    """poly: (N,2) closed outline; nose: (2,). Returns dict or None."""
    poly = np.asarray(poly, dtype=np.float64)
    nose = np.asarray(nose, dtype=np.float64)
    if len(poly) < 3:
        return None
    centre = polygon_centroid(poly)
    for _ in range(100):
        to = nose - centre
        dist = float(np.hypot(*to))
        if not dist > 0:
            return None
        axis = to / dist
        across = np.array([-axis[1], axis[0]])
        a0, a1 = _extent(poly, centre, axis)
        c0, c1 = _extent(poly, centre, across)
        shift = axis * (a0 + a1) / 2 + across * (c0 + c1) / 2
        centre = centre + shift
        if np.hypot(*shift) <= 1e-9 * (a1 - a0):
            break
    to = nose - centre
    if not np.hypot(*to) > 0:
        return None
    axis = to / np.hypot(*to)
    across = np.array([-axis[1], axis[0]])
    a0, a1 = _extent(poly, centre, axis)
    c0, c1 = _extent(poly, centre, across)
    L, W = a1 - a0, c1 - c0
    if not (L > 0 and W > 0):
        return None
    p = chord_through(poly, centre, _rot(axis, math.radians(30)))
    m = chord_through(poly, centre, _rot(axis, -math.radians(30)))
    if p is None or m is None:
        return None
    A, B = max(p, m), min(p, m)
    return {"centre": centre, "axis": axis, "L": L, "W": W, "A": A, "B": B,
            "ci": 100.0 * W / L, "cvai": 100.0 * (A - B) / A}


def trim_bulges(poly, harmonics=6, tolerance=0.015, iterations=8):
    """The outline with outward bulges (ears, hair) cut back to a robust low-order fit of its radius
    around the centroid; as core/src/measurement/bulges.ts."""
    poly = np.asarray(poly, dtype=np.float64)
    terms = 2 * harmonics + 1
    if len(poly) < 2 * terms:
        return poly
    c = polygon_centroid(poly)
    head_r = math.sqrt(abs(polygon_area(poly)) / math.pi)
    if not head_r > 0:
        return poly
    d = poly - c
    th = np.arctan2(d[:, 1], d[:, 0])
    r = np.hypot(d[:, 0], d[:, 1])
    A = np.column_stack([np.ones_like(th)] + [f(k * th) for k in range(1, harmonics + 1) for f in (np.cos, np.sin)])
    w = np.ones_like(r)
    for _ in range(iterations):
        coef = np.linalg.lstsq(A * w[:, None], r * w, rcond=None)[0]
        fitted = A @ coef
        e = (r - fitted) / head_r
        w = np.where(e > 0, 1 / (1 + (e / tolerance) ** 2), 1.0)
    r2 = np.where((r > fitted) & (fitted > 0), fitted, r)
    return c + np.column_stack([np.cos(th), np.sin(th)]) * r2[:, None]
