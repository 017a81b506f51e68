"""render3's truth from what the render shows (numpy only: Blender's Python and /usr/bin/python3 both run it).

Labels of the label pass (one id per pixel, read from an emission-only render with one sample at the
pixel centre) and of the "full" pass (the whole vault, with nothing but the head itself in front of it).
"""
import math

import numpy as np

BG, CLOTH, VAULT, LOWER, NOSE, EAR, STICKER, HAIR, HAND, BRIM = range(10)
LABEL_STEP = 16  # a label's value in the 8-bit label image is id * LABEL_STEP


def decode_labels(img8):
    """(H, W) label ids from the red channel of the label pass."""
    return np.clip(np.rint(img8.astype(np.float32) / LABEL_STEP), 0, 15).astype(np.uint8)


def _dilate(m):
    p = np.pad(m, 1)
    out = np.zeros_like(m)
    for dy in range(3):
        for dx in range(3):
            out |= p[dy:dy + m.shape[0], dx:dx + m.shape[1]]
    return out


def _erode(m):
    return ~_dilate(~m)


def head_diameter(full):
    """The head's equivalent diameter in pixels: the disc of the whole vault's area."""
    return 2.0 * math.sqrt(max(int(full.sum()), 1) / math.pi)


def nose_rule(labels, tip_uv, diam):
    """The product owner's nose rule (render.py's, ADR 0112 / issue 45): a nose is visible when at least
    max(4, (0.02 D)^2) nose pixels show, the nearest within 0.04 D of the projected tip, the tip in the
    frame. Returns (visible, nose pixel count)."""
    H, W = labels.shape
    ys, xs = np.nonzero(labels == NOSE)
    n = int(len(xs))
    if tip_uv is None or not (0 <= tip_uv[0] < W and 0 <= tip_uv[1] < H):
        return False, n
    if n < max(4.0, (0.02 * diam) ** 2):
        return False, n
    d = np.min(np.hypot(xs + 0.5 - tip_uv[0], ys + 0.5 - tip_uv[1]))
    return bool(d <= 0.04 * diam), n


def incomplete(labels, full, cut_frac):
    """render.py's three "Head contour is incomplete" checks on the rendered result: more than 1 % of the
    vault outside the frame, more than 1 % of the visible vault hidden by a hand, or a hand over more than
    1 % of the vault's outline. Returns (incomplete, figures)."""
    hand = labels == HAND
    area = max(1, int(full.sum()))
    occluded = float((full & hand).sum()) / area
    edge = _dilate(full) & ~_erode(full)
    edge_occ = float((edge & hand).sum()) / max(1, int(edge.sum()))
    return bool(cut_frac > 0.01 or occluded > 0.01 or edge_occ > 0.01), {
        "cut": float(cut_frac), "occluded": occluded, "edge_occluded": edge_occ}


def head_mask(labels, full):
    """The vault as seen: vault (skin or cap), the sticker on it, and hair lying within the vault's outline."""
    return (labels == VAULT) | (labels == STICKER) | ((labels == HAIR) & full)


def reasons_seen(want, labels, full, tip_uv, cut_frac):
    """The reasons the rendered scene shows (blur is added in post). Pose reasons are those the scene was
    posed for (3 cheek, 4 face, 6 tilted, 7 back, 5 hair tufts); "no nose" and "incomplete" are read off the
    render, as render.py does."""
    diam = head_diameter(full)
    visible, n_nose = nose_rule(labels, tip_uv, diam)
    got = {r for r in want if r in (3, 4, 5, 6, 7)}
    if not visible and 4 not in got and 7 not in got:
        got.add(1)
    inc, figs = incomplete(labels, full, cut_frac)
    if inc:
        got.add(2)
    figs.update({"nose_pixels": n_nose, "nose_visible": visible, "head_diam": diam})
    return sorted(got), figs
