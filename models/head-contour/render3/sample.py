"""render3's scene sampler: every random choice of a photo, drawn from one seed, as plain JSON.

Pure numpy, so Blender's Python (which builds and renders the scene, blend.py) and /usr/bin/python3
(which post-processes and checks, post.py / build.py) read the same parameters. Lengths are metres,
angles degrees. The head's own frame: origin at the centre of its widest horizontal section, +x
towards the nose, +y to the infant's left, +z up.
"""
import numpy as np

REASONS = ["blurry", "no_nose", "incomplete", "cheek", "face", "hair", "tilted", "back"]

# Skin base colours (sRGB 0-1), light to deep; a scene interpolates between neighbours.
SKIN = np.array([
    [0.96, 0.80, 0.71], [0.90, 0.71, 0.60], [0.80, 0.60, 0.47],
    [0.66, 0.46, 0.33], [0.47, 0.31, 0.21], [0.30, 0.19, 0.13],
])


def skin_colour(rng):
    t = rng.uniform(0, 5)
    i = int(t)
    c = SKIN[i] * (1 - (t - i)) + SKIN[min(i + 1, 5)] * (t - i)
    return (c * rng.uniform(0.95, 1.05, 3)).clip(0, 1).tolist(), float(t)


def muted(rng, lo=0.05, hi=0.95, chroma=(0.15, 0.6)):
    """A colour as households have them: mostly muted, now and then vivid."""
    c = rng.uniform(lo, hi, 3)
    g = c.mean()
    return np.clip(g + (c - g) * rng.uniform(*chroma), 0, 1).tolist()


def draw_reasons(rng, bad_share=0.5):
    """The reasons a scene is drawn to show: none (a good photo) or one, rarely two."""
    if rng.random() >= bad_share:
        return []
    k = 1 if rng.random() < 0.88 else 2
    picked = sorted(int(r) for r in rng.choice(8, size=k, replace=False))
    # pose reasons exclude one another: one head pose per photo
    pose = [r for r in picked if r in (1, 3, 4, 6, 7)]
    if len(pose) > 1:
        picked = [r for r in picked if r not in pose[1:]]
    return picked


def sample_head(rng):
    kind = str(rng.choice(["typical", "brachy", "dolicho", "plagio", "plagio_brachy", "plagio_dolicho"],
                          p=[0.25, 0.15, 0.12, 0.24, 0.14, 0.10]))
    half_len = rng.uniform(0.060, 0.085)
    if "brachy" in kind:
        ratio = rng.uniform(0.86, 0.99)
    elif "dolicho" in kind:
        ratio = rng.uniform(0.64, 0.74)
    else:
        ratio = rng.uniform(0.72, 0.88)
    plag = kind.startswith("plagio")
    return {
        "kind": kind,
        "a": half_len,                      # half-length of the section (before deformation)
        "ratio": ratio,                     # half-width / half-length
        "power": rng.uniform(2.0, 2.6),     # section superellipse exponent
        "egg": rng.uniform(0.0, 0.08),      # parietal widening towards the back
        "back_flat": rng.uniform(0.03, 0.12) if "brachy" in kind else rng.uniform(0.0, 0.015),
        "plag_side": int(rng.choice([-1, 1])),
        "plag_flat": rng.uniform(0.03, 0.16) if plag else 0.0,       # occipital quadrant flattened
        "plag_push": rng.uniform(0.0, 0.07) if plag else 0.0,        # opposite frontal quadrant forward
        "plag_centre": rng.uniform(20, 45),                          # degrees off the midline
        "dome": rng.uniform(0.72, 0.95),    # vault height / half-length
        "dome_power": rng.uniform(2.0, 2.5),
        "lower": rng.uniform(0.95, 1.15),   # equator-to-chin depth / half-length
        "brow": rng.uniform(0.0, 0.012),
        "nose_len": rng.uniform(0.013, 0.022),   # tip beyond the forehead's outline
        "nose_drop": rng.uniform(0.030, 0.045),  # tip below the widest section
        "nose_size": rng.uniform(0.8, 1.2),
        "ear_out": rng.uniform(25, 45),          # ear protrusion
        "ear_size": rng.uniform(0.85, 1.15),
        "ear_shift": rng.uniform(0.0, 0.012) if plag else rng.uniform(0, 0.003),
        "neck": rng.uniform(0.38, 0.48),         # neck radius / half-length
    }


def sample_covering(rng, want):
    """Cap (knit or stretch, with or without the kit's sticker) or hair (five models)."""
    cap = (5 not in want) and rng.random() < 0.48
    out = {"cap": bool(cap)}
    if cap:
        out["cap_kind"] = str(rng.choice(["knit", "stretch"], p=[0.65, 0.35]))
        out["cap_colour"] = muted(rng, chroma=(0.2, 1.0))
        out["cap_stripes"] = bool(rng.random() < 0.3)
        out["cap_stripe_colour"] = muted(rng)
        out["cap_thick"] = rng.uniform(0.0015, 0.003)
        out["cap_brim"] = rng.uniform(-28, -8)      # where the brim sits (degrees below the equator)
        out["cap_rib"] = rng.uniform(60, 110)       # ribs around
        sticker = rng.random() < 0.8
    else:
        out["hair_model"] = str(rng.choice(["fine", "sparse", "curly", "thick", "bald"], p=[0.25, 0.2, 0.2, 0.2, 0.15]))
        out["hair_melanin"] = rng.uniform(0.05, 0.98)
        out["hair_red"] = rng.uniform(0.0, 0.8)
        out["whorl"] = [rng.uniform(150, 210), rng.uniform(55, 80)]   # alpha, elevation
        out["hair_len"] = rng.uniform(0.008, 0.04)
        out["hair_seed"] = int(rng.integers(1 << 30))
        out["wet"] = bool(rng.random() < 0.15)
        sticker = rng.random() < 0.15
    out["sticker"] = None
    if sticker:
        out["sticker"] = {
            "mm": 30.0,
            "colour": str(rng.choice(["white", "yellow", "blue"], p=[0.6, 0.25, 0.15])),
            "from_top": rng.uniform(0.0, 0.018),          # distance from the vertex along the surface
            "bearing": rng.uniform(0, 360),
            "spin": rng.uniform(0, 360),
            "peeled": float(rng.uniform(12, 35)) if rng.random() < 0.15 else 0.0,
            "glare": bool(rng.random() < 0.3),
        }
    return out


def sample_pose(rng, want):
    """Head rotations (degrees). Good photos keep every rotation within 3.5 degrees."""
    pose = {"pitch": rng.uniform(-3.5, 3.5), "roll": rng.uniform(-3.5, 3.5), "oblique": 0.0, "oblique_axis": 45.0}
    if 1 in want:
        pose["pitch"] = rng.uniform(12, 30)          # chin tucked: the nose goes under the brow
    if 7 in want:
        pose["pitch"] = rng.uniform(45, 75)          # back view
    if 4 in want:
        pose["pitch"] = -rng.uniform(22, 42)         # tipped back: the face shows
    if 6 in want:
        pose["roll"] = float(rng.choice([-1, 1]) * rng.uniform(16, 32))
    if 3 in want:
        pose["oblique"] = float(rng.choice([-1, 1]) * rng.uniform(16, 30))
        pose["oblique_axis"] = float(rng.choice([45, 135]))
    return pose


def sample_hands(rng, want):
    hands = []
    n = int(rng.choice([0, 1, 2], p=[0.35, 0.4, 0.25]))
    over = 2 in want and rng.random() < 0.6
    if over and n == 0:
        n = 1
    skin, tone = skin_colour(rng)
    for i in range(n):
        hands.append({
            "alpha": float(rng.uniform(0, 360)),
            "fingers": int(rng.integers(2, 5)),
            "over": bool(over and i == 0),             # fingers across the outline
            "reach": rng.uniform(12, 40) if (over and i == 0) else rng.uniform(-70, -35),
            "spread": rng.uniform(8, 16),
            "width": rng.uniform(0.0075, 0.0095),      # finger radius
            "skin": skin, "tone": tone,
        })
    return hands, bool(over)


def sample_scene(rng, want=None, bad_share=0.5):
    if want is None:
        want = draw_reasons(rng, bad_share)
    skin, tone = skin_colour(rng)
    head = sample_head(rng)
    cover = sample_covering(rng, want)
    pose = sample_pose(rng, want)
    hands, over = sample_hands(rng, want)
    cut = 2 in want and not over
    aspect = str(rng.choice(["4:3", "3:4", "1:1", "16:9", "9:16"], p=[0.25, 0.35, 0.15, 0.1, 0.15]))
    p = {
        "want": want,
        "skin": skin, "tone": tone, "sss": rng.uniform(0.5, 1.0),
        "head": head, "cover": cover, "pose": pose, "hands": hands,
        "body": {
            "kind": str(rng.choice(["shirt", "swaddle", "hood", "bare"], p=[0.45, 0.25, 0.12, 0.18])),
            "colour": muted(rng),
            "colour2": muted(rng),
            "pattern": str(rng.choice(["plain", "stripes", "dots", "knit", "fleece"])),
            "shoulder": rng.uniform(0.09, 0.12),
        },
        "background": {
            "kind": str(rng.choice(["wood", "carpet", "quilt", "sheet", "sofa", "tiles", "plain"])),
            "colour": muted(rng, 0.1, 0.9),
            "colour2": muted(rng, 0.1, 0.9),
            "scale": rng.uniform(0.5, 2.0),
            "depth": rng.uniform(0.18, 0.45),          # below the widest section
            "wrinkles": rng.uniform(0, 1),
            "seed": float(rng.uniform(0, 100)),
        },
        "light": {
            "window": bool(rng.random() < 0.6),
            "window_kelvin": rng.uniform(5200, 7500),
            "window_dir": rng.uniform(0, 360),
            "window_elev": rng.uniform(15, 60),
            "window_power": rng.uniform(0.5, 2.0),
            "ceiling": bool(rng.random() < 0.7),
            "ceiling_kelvin": rng.uniform(2600, 4200),
            "ceiling_power": rng.uniform(0.3, 1.5),
            "ceiling_at": rng.uniform(-0.6, 0.6, 2).tolist(),
            "flash": bool(rng.random() < 0.25),
            "ambient": rng.uniform(0.05, 0.4),
            "ambient_kelvin": rng.uniform(5000, 9000),
        },
        "camera": {
            "distance": rng.uniform(0.30, 0.60),       # lens to the vertex
            "fill": rng.uniform(0.38, 0.85),           # head's length with the nose / frame's short side
            "tilt": rng.uniform(0, 4), "tilt_dir": rng.uniform(0, 360),
            "spin": rng.uniform(0, 360),               # in-image rotation
            "offset": rng.uniform(-0.5, 0.5, 2).tolist(),     # head centre off the frame centre, x the room left
            "aspect": aspect,
            "cut": float(rng.uniform(0.12, 0.35)) if cut else 0.0,
            "cut_dir": rng.uniform(0, 360),
            "exposure": rng.uniform(-0.6, 0.5),
        },
        "post": {
            "seed": int(rng.integers(1 << 30)),
        },
        "samples": int(rng.choice([12, 16, 24])),
    }
    if 5 in want:
        p["cover"]["tufts"] = int(rng.integers(4, 12))
    return p
