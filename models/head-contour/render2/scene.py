"""Second renderer family: scenes of a triangle-mesh infant head seen from above. NEVER used for training.

Written apart from ../render.py and deliberately different in how it makes things:
- head: a lofted mesh of horizontal sections; the section is an ellipse that plagiocephaly *shears*
  (a parallelogram head) and brachycephaly flattens at the back; the vault height is drawn on its own
  (5-8 cm, not tied to the length); the lower head narrows by a power law;
- hair models (fine, sparse with scalp showing, curly, thick, bald with fuzz), fuzzy silhouettes;
- caps with or without a sticker, stickers of any colour and size (18-45 mm, the kit's 30 mm most
  often), a printed ring or not, glare or not; hair heads sometimes carry a sticker too;
- clothing anywhere: under the head, behind it, in front, off to a side, or absent; unequal ears;
- backgrounds: planks, quilts, dots, blotches; flash, mixed light colour, tone curves, denoise and
  sharpen, barrel distortion, resize chains, JPEG.
Its truth comes from its own geometry: CI, CVAI and CVA (mm) of the section at the widest level,
measured with ../geometry.py; the bad-image reasons from the pose and what the render shows.
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from geometry import measure_head  # noqa: E402
from mesh import Camera, Mesh, disc, ellipsoid, grid_mesh, rasterise, rotation  # noqa: E402
from look import background, finish_photo, shade  # noqa: E402

HEAD, NOSE, EAR, STICKER, BODY, HAND = 1, 2, 3, 4, 5, 6
REASONS = 8  # in model.json order
HAIR_MODELS = ["fine", "sparse", "curly", "thick", "bald"]
SKIN = np.array([[0.96, 0.84, 0.76], [0.92, 0.76, 0.64], [0.80, 0.62, 0.48], [0.64, 0.45, 0.32],
                 [0.45, 0.30, 0.21], [0.28, 0.19, 0.14]])


def section(s, t):
    """The widest horizontal section (cm), t = angle from the front (+y) towards the right (+x)."""
    x, y = s["half_w"] * np.sin(t), s["half_l"] * np.cos(t)
    y = y * (1 - s["back_flat"] * np.clip(-np.cos(t), 0, None) ** 3)
    w = np.exp(s["focus"] * (np.cos(t - s["flat_at"]) - 1))
    x, y = x * (1 - s["quad_flat"] * w), y * (1 - s["quad_flat"] * w)
    return np.stack([x + s["shear"] * y, y], -1)  # plagiocephaly: a sheared (parallelogram) head


def profile(s, z):
    """Scale of the section at height z (cm; 0 = widest section)."""
    up = np.clip(1 - np.clip(z / s["vault_h"], 0, 1) ** s["dome"], 0, 1) ** (1 / s["dome"])
    down = 1 - s["narrow"] * np.clip(-z / 9.0, 0, 1) ** 1.6
    return np.where(z >= 0, up, down)


def sample_head(rng, kind):
    length = rng.uniform(12.5, 16.5)
    ci = {"typical": rng.uniform(76, 90), "brachy": rng.uniform(88, 100), "dolicho": rng.uniform(68, 77),
          "plagio": rng.uniform(76, 92), "plagio_brachy": rng.uniform(88, 99)}[kind]
    plagio = kind.startswith("plagio")
    side = rng.choice([-1, 1])
    return {"kind": kind, "half_l": length / 2, "half_w": length * ci / 200,
            "back_flat": rng.uniform(0.04, 0.14) if kind in ("brachy", "plagio_brachy") else rng.uniform(0, 0.04),
            "shear": side * (rng.uniform(0.05, 0.2) if plagio else rng.uniform(0, 0.015)),
            "quad_flat": rng.uniform(0.03, 0.12) if plagio else 0.0, "focus": rng.uniform(2.5, 5),
            "flat_at": math.pi - side * rng.uniform(0.3, 0.9),
            "vault_h": rng.uniform(5.0, 8.0), "dome": rng.uniform(1.8, 2.6), "narrow": rng.uniform(0.22, 0.4)}


def sample_scene(rng, want):
    """want: the list of reasons this scene is meant to show (empty for a good photo)."""
    w = set(want)
    cap = rng.random() < 0.5
    p = {"want": sorted(w), "cap": bool(cap), "seed": int(rng.integers(2 ** 31))}
    p["head"] = sample_head(rng, rng.choice(["typical", "brachy", "dolicho", "plagio", "plagio_brachy"]))
    p["sticker"] = bool(rng.random() < (0.75 if cap else 0.15))
    p["sticker_mm"] = 30.0 if rng.random() < 0.7 else float(rng.uniform(18, 45))
    p["sticker_colour"] = rng.uniform(0.05, 1.0, 3)
    p["sticker_ring"], p["sticker_glare"] = bool(rng.random() < 0.5), bool(rng.random() < 0.3)
    p["hair"] = str(rng.choice(HAIR_MODELS))
    p["hair_colour"] = rng.choice([np.array([0.08, 0.06, 0.05]), np.array([0.3, 0.2, 0.12]),
                                   np.array([0.6, 0.45, 0.25]), np.array([0.85, 0.72, 0.5]),
                                   np.array([0.5, 0.2, 0.08])]) * rng.uniform(0.8, 1.15)
    p["cap_colour"] = rng.uniform(0.1, 0.95, 3)
    p["cap_pattern"] = str(rng.choice(["plain", "ribs", "stripes", "dots", "tie-dye"]))
    t = rng.uniform(0, 5)
    i = int(min(t, 4.999))
    p["skin"] = SKIN[i] * (1 - (t - i)) + SKIN[i + 1] * (t - i)
    p["adult_skin"] = SKIN[rng.integers(6)] * rng.uniform(0.9, 1.05)
    p["body"] = str(rng.choice(["under", "behind", "front", "side", "absent"]))
    p["cloth"] = rng.uniform(0.05, 0.95, 3)
    ang = lambda lo, hi: math.radians(rng.uniform(lo, hi)) * rng.choice([-1, 1])  # noqa: E731
    small = lambda: math.radians(rng.uniform(-3.5, 3.5))  # noqa: E731
    p["pitch"], p["roll"], p["oblique"] = small(), small(), small()
    p["nose_rel"] = rng.uniform(0.7, 2.0)  # how far the nose tip reaches beyond the forehead (cm)
    if 1 in w:
        if rng.random() < 0.5:
            p["nose_rel"] = rng.uniform(-1.5, -0.4)
        else:
            p["pitch"] = -math.radians(rng.uniform(12, 25))
    if 4 in w:
        p["pitch"] = math.radians(rng.uniform(24, 42))
    if 7 in w:
        p["pitch"] = -math.radians(rng.uniform(45, 75))
    if 6 in w:
        p["roll"] = ang(17, 32)
    if 3 in w:
        p["oblique"] = ang(17, 30)
    p["ears"] = [(rng.uniform(2.2, 3.4), rng.uniform(20, 48), rng.uniform(-1.5, 0.6)) for _ in range(2)]
    p["yaw"] = rng.uniform(0, 2 * math.pi)
    p["dist"] = rng.uniform(22, 45)  # camera above the vertex, cm
    p["tilt"] = (math.radians(rng.uniform(-4, 4)), math.radians(rng.uniform(-4, 4)))
    p["aspect"] = float(rng.choice([1.0, 4 / 3, 3 / 4, 16 / 9, 9 / 16], p=[0.2, 0.3, 0.3, 0.1, 0.1]))
    p["head_frac"] = rng.uniform(0.3, 0.85)
    p["cut"] = 2 in w and rng.random() < 0.5
    p["hand_over"] = 2 in w and not p["cut"]
    p["hand_side"] = (not p["hand_over"]) and rng.random() < 0.3
    p["tufts"] = 5 in w
    p["fuzz"] = (not cap) and p["hair"] != "bald" and rng.random() < 0.6
    p["blur"] = 0 in w
    return p


def head_meshes(p):
    """Head, nose, ears and sticker in the head's frame (x right, y front, z up, 0 = widest section)."""
    s = p["head"]
    t = np.linspace(0, 2 * math.pi, 120, endpoint=False)
    zs = np.concatenate([np.linspace(-9, -0.5, 16), np.linspace(0, s["vault_h"], 26)])
    sec = section(s, t)
    pr = profile(s, zs)
    pts = np.concatenate([sec[:, None, :] * pr[None, :, None], np.broadcast_to(zs, (len(t), len(zs)))[..., None]], -1)
    uv = np.stack(np.meshgrid(t, zs, indexing="ij"), -1)
    meshes = [grid_mesh(pts, uv, np.ones(3), HEAD)]
    # nose: reaches nose_rel beyond the forehead's section, 3.5-5 cm below it
    zn = -4.2
    front = section(s, np.array([0.0]))[0]
    tip = np.array([front[0] * profile(s, zn), front[1] + p["nose_rel"], zn])
    meshes.append(ellipsoid(tip - [0, 0.75, 0], (0.75, 0.8, 0.6), p["skin"] * 0.97, NOSE))
    for side, (size, protrude, shift) in zip((-1, 1), p["ears"]):
        ze = -2.6
        at = section(s, np.array([side * math.pi / 2]))[0] * profile(s, ze)
        rot = rotation([0, 1, 0], side * math.radians(90 - protrude))
        meshes.append(ellipsoid([at[0] + side * 0.3, at[1] + shift, ze], (0.35, size / 2, size * 0.32), p["skin"] * 0.95, EAR, rot))
    sticker = None
    if p["sticker"]:
        rng = np.random.default_rng(p["seed"] + 1)
        ts, off = rng.uniform(0, 2 * math.pi), rng.uniform(0, 1.8)
        # the height on the dome at horizontal distance `off` along ts, then the surface normal there
        zz = np.linspace(0, s["vault_h"], 400)
        rad = profile(s, zz) * np.linalg.norm(section(s, np.array([ts]))[0])
        z0 = float(np.interp(-off, -rad, zz))
        centre = lambda a, z: np.append(section(s, np.array([a]))[0] * profile(s, z), z)  # noqa: E731
        c = centre(ts, z0)
        n = np.cross(centre(ts + 0.01, z0) - c, centre(ts, min(z0 + 0.05, s["vault_h"] - 1e-3)) - c)
        n = n if n[2] > 0 else -n
        if off < 0.05:
            n = np.array([0.0, 0.0, 1.0])
        sticker = {"centre": c + 0.06 * n / np.linalg.norm(n), "normal": n}
        meshes.append(disc(sticker["centre"], n, p["sticker_mm"] / 20, p["sticker_colour"], STICKER))
    return meshes, tip, sticker


def truth_of(p, tip):
    s = p["head"]
    poly = section(s, np.linspace(0, 2 * math.pi, 1440, endpoint=False))
    g = measure_head(poly, tip[:2])
    return {"ci": g["ci"], "cvai": g["cvai"], "cva_mm": 10 * (g["A"] - g["B"]), "length_mm": 10 * g["L"], "poly": poly}


def hand_meshes(p, rng, s):
    """Fingers of an adult hand: over the outline (incomplete) or holding the head at a side."""
    side = rng.choice([-1, 1])
    out = []
    y0 = rng.uniform(-3, 3)
    for k in range(int(rng.integers(2, 5))):
        y = y0 + (k - 1.5) * 1.7
        half = s["half_w"] * 1.15 + 3.0
        if p["hand_over"]:
            x, z = side * (s["half_w"] - rng.uniform(0.3, 2.0) + 3.0), rng.uniform(1.0, 2.5)
        else:
            x, z = side * (half + rng.uniform(0.5, 2)), -3.0
        out.append(ellipsoid([x, y, z], (3.2, 0.8, 0.7), p["adult_skin"], HAND, nu=20, nv=10))
    return out


def render(p, long_side=512):
    rng = np.random.default_rng(p["seed"])
    s = p["head"]
    meshes, tip, sticker = head_meshes(p)
    truth = truth_of(p, tip)
    # pose: about a pivot in the neck, then the in-plane orientation
    pose = rotation([0, 0, 1], p["yaw"]) @ rotation([1, 1, 0], p["oblique"]) @ rotation([0, 1, 0], p["roll"]) @ rotation([1, 0, 0], p["pitch"])
    pivot = np.array([0, -1.0, -7.0])
    shift = pivot - pose @ pivot
    world = [m.transformed(pose, shift) for m in meshes]
    if p["hand_over"] or p["hand_side"]:
        world += [m.transformed(rotation([0, 0, 1], p["yaw"]), np.zeros(3)) for m in hand_meshes(p, rng, s)]
    if p["body"] != "absent":
        off = {"under": (0, rng.uniform(-1.5, 1.5)), "behind": (rng.uniform(-2, 2), rng.uniform(-8, -4)),
               "front": (rng.uniform(-2, 2), rng.uniform(3, 6)), "side": (rng.choice([-1, 1]) * rng.uniform(6, 10), rng.uniform(-4, 2))}[p["body"]]
        body = ellipsoid([off[0], off[1], -14], (13, 6, 6), p["cloth"], BODY, nu=36, nv=16)
        world.append(body.transformed(rotation([0, 0, 1], p["yaw"]), np.zeros(3)))
    # camera: the head fills head_frac of the short side at the widest section
    aspect = p["aspect"]
    w, h = (long_side, int(round(long_side / aspect))) if aspect >= 1 else (int(round(long_side * aspect)), long_side)
    top = s["vault_h"]
    depth = p["dist"] + top
    f = p["head_frac"] * min(w, h) * depth / (2 * s["half_l"] * 1.05)
    crot = rotation([1, 0, 0], p["tilt"][0]) @ rotation([0, 1, 0], p["tilt"][1])
    cam = Camera([0, 0, depth], crot, f, w, h)
    ring, _ = cam.project(np.column_stack([truth["poly"], np.zeros(len(truth["poly"]))]) @ pose.T + shift)
    lo, hi = ring.min(0), ring.max(0)
    span = hi - lo
    room = np.array([w, h]) - span
    if p["cut"]:
        frac = rng.uniform(0.12, 0.35)
        axis = rng.integers(2)
        target = rng.uniform(0, np.maximum(room, 0))
        target[axis] = -frac * span[axis] if rng.random() < 0.5 else [w, h][axis] - (1 - frac) * span[axis]
    else:
        target = rng.uniform(0.04, 0.96, 2) * np.maximum(room, 0) + np.minimum(room, 0) / 2
    cam.cx += target[0] - lo[0]
    cam.cy += target[1] - lo[1]
    zbuf, lab, nrm, col, uv, pos = rasterise(world, cam)
    head_frame = (pos - shift) @ pose  # back into the head's own frame, for textures
    bg = background(rng, h, w)
    img, light = shade(p, rng, lab, nrm, col, uv, head_frame, pos, cam, bg, sticker is not None)
    ring, _ = cam.project(np.column_stack([truth["poly"], np.zeros(len(truth["poly"]))]) @ pose.T + shift)
    head_px = float(np.ptp(ring, 0).max())
    img = finish_photo(p, rng, img, lab, head_px)
    # the reasons the photo really shows
    reasons = set(p["want"])
    tip_px, _ = cam.project(pose @ tip + shift)
    tx, ty = int(round(tip_px[0])), int(round(tip_px[1]))
    nose_seen = 0 <= tx < w and 0 <= ty < h and (lab[max(ty - 3, 0):ty + 4, max(tx - 3, 0):tx + 4] == NOSE).sum() >= 4
    if not nose_seen and 7 not in reasons:
        reasons.add(1)
    if nose_seen and 1 in reasons:
        reasons.discard(1)
    inside = (ring[:, 0] >= 0) & (ring[:, 0] < w) & (ring[:, 1] >= 0) & (ring[:, 1] < h)
    ri = np.clip(np.round(ring).astype(int), 0, [w - 1, h - 1])
    covered = lab[ri[:, 1], ri[:, 0]] == HAND
    if (~inside).mean() > 0.005 or (covered & inside).mean() > 0.01:
        reasons.add(2)
    elif 2 in reasons:
        reasons.discard(2)
    sticker_info = None
    if sticker is not None:
        sc = pose @ sticker["centre"] + shift
        sticker_info = {"mm": p["sticker_mm"], "height_mm": 10 * float(sticker["centre"][2]),
                        "camera_to_sticker_cm": float(np.linalg.norm(sc - cam.centre))}
    return {"image": img, "reasons": sorted(int(r) for r in reasons), "ci": truth["ci"], "cvai": truth["cvai"],
            "cva_mm": truth["cva_mm"], "length_mm": truth["length_mm"], "sticker": sticker_info, "head_px": head_px,
            "camera_to_section_cm": float(depth), "light": light,
            # where the nose tip projects and how many of its pixels show (for the diagnosis of missed noses)
            "nose": [float(tip_px[0]), float(tip_px[1])], "nose_pixels": int((lab == NOSE).sum())}
