"""Renderer of synthetic top-view infant head photos with known truth (numpy + OpenCV).

The scene is a set of 3D surfaces sampled as dense point clouds (head vault and lower head/face,
ears, nose, cheeks, shoulders, adult hands, cap, sticker, hair strands) in head coordinates
(cm; x = right, y = forward towards the nose, z = up; origin at the centre of the head's widest
horizontal cross-section). Points are shaded by their normals, posed, projected with a perspective
pinhole camera and z-buffered (2x2 splats) over a procedural background, then lit, shadowed,
blurred, noised and JPEG-compressed.

Truth per photo: the visible cranial-vault mask (ears, nose, face, hands, brim, stray hair are not
head), the nose-tip pixel (or none when no nose pixel is visible), the sticker disc mask (30 mm),
the applicable bad-image reasons, and the true CI / CVAI of the head's own outline seen straight
from above along its vertical axis (geometry.py, the measurement.md geometry).
"""
import math
import os

import cv2
import numpy as np

import look06
from geometry import measure_head

REASONS = [
    "Image is blurry",
    "No nose visible",
    "Head contour is incomplete (obstructed by hand, finger, or outside the frame)",
    "Head is tilted (cheek asymmetry)",
    "Too much of the face is present (head tilted back)",
    "Hair artifact present",
    "Head tilted to the left or right",
    "No nose, back view",
]
STICKER_DIAMETER_CM = 3.0
# Which scene distribution to draw. "0.5": the one model 0.5.0 was trained on (kept so that its data,
# samples and quiz pools rebuild byte for byte). "0.6": without the shortcuts issue 18 found (a sticker
# on caps and hair alike, of any colour, size and glare; clothing anywhere in good photos, or none;
# unequal ears), drawn after every 0.5 parameter so the rest of each scene stays the same. "0.6e": the
# 0.6 scenes with slivers of nose, cloth and thin hair at the vault's edge in a share of them (ADR 0097).
SCENES = os.environ.get("CROWN_SCENES", "0.5")
# Half the photos that are not blurry softened once more by up to this many head diameters (models/head-contour/lab/0126);
# 0 (the default) renders every set exactly as before.
SOFTEN_GOOD = float(os.environ.get("CROWN_SOFTEN_GOOD", "0"))

# Labels in the z-buffer.
L_BG, L_VAULT, L_LOWER, L_EAR, L_NOSE, L_CHEEK, L_BODY, L_HAND, L_BRIM, L_STICKER, L_HAIR = range(11)

# Fitzpatrick I..VI, sRGB.
SKIN = np.array([[241, 210, 192], [229, 186, 158], [206, 158, 120], [168, 118, 84], [118, 80, 56], [72, 49, 38]], np.float32) / 255
HAIR = np.array([[250, 230, 160], [200, 160, 100], [130, 85, 50], [80, 50, 30], [35, 25, 20], [20, 15, 12], [150, 70, 35]], np.float32) / 255


# ----------------------------------------------------------------------------- head shape

def sample_shape(rng, kind=None):
    """Cross-section shape parameters spanning CI ~68-102 and CVAI ~0-16."""
    kind = kind or rng.choice(["typical", "brachy", "dolicho", "plagio", "plagio_brachy", "plagio_dolicho"],
                              p=[0.2, 0.17, 0.13, 0.22, 0.18, 0.10])
    ratio = {"typical": (0.78, 0.9), "brachy": (0.9, 0.98), "dolicho": (0.67, 0.78), "plagio": (0.76, 0.9),
             "plagio_brachy": (0.88, 0.97), "plagio_dolicho": (0.69, 0.8)}[kind]
    plag = kind.startswith("plagio")
    s = {
        "kind": kind,
        "L": rng.uniform(12.0, 17.0),
        "ratio": rng.uniform(*ratio),
        "n": rng.uniform(2.0, 2.7),
        "egg": rng.uniform(0.0, 0.07),
        "flat": rng.uniform(0.02, 0.36) if plag else rng.uniform(0.0, 0.012),
        "push": rng.uniform(0.0, 0.15) if plag else rng.uniform(0.0, 0.008),
        "flat_side": rng.choice([-1, 1]),
        "flat_angle": rng.uniform(math.radians(20), math.radians(45)),
        "flat_width": rng.uniform(3.0, 6.0),
        "occ_flat": rng.uniform(0.0, 0.1) if kind in ("brachy", "plagio_brachy") else rng.uniform(0, 0.03),
        "hz": rng.uniform(0.75, 0.95),
        "hl": rng.uniform(8.0, 9.5),
        "nose_prot": rng.uniform(1.3, 2.2),
    }
    return s


def radius(s, alpha):
    """Equatorial radius r(alpha); alpha measured from +y (front) towards +x (right)."""
    b = s["L"] / 2
    a = b * s["ratio"]
    n = s["n"]
    sa, ca = np.sin(alpha), np.cos(alpha)
    r = 1.0 / (np.abs(sa / a) ** n + np.abs(ca / b) ** n) ** (1 / n)
    r = r * (1 + s["egg"] * (-ca) * sa ** 2)  # wider at the back (parietal bossing)
    k = s["flat_width"]
    af = math.pi - s["flat_side"] * s.get("flat_angle", math.pi / 4)  # back-right (side=+1) or back-left
    w_flat = np.exp(k * (np.cos(alpha - af) - 1))
    w_push = np.exp(k * (np.cos(alpha - af + math.pi) - 1))
    w_occ = np.exp(3.0 * (np.cos(alpha - math.pi) - 1))
    return r * (1 - s["flat"] * w_flat) * (1 + s["push"] * w_push) * (1 - s["occ_flat"] * w_occ)


def truth_outline(s, n=1440):
    al = np.linspace(0, 2 * math.pi, n, endpoint=False) + math.pi / n
    r = radius(s, al)
    poly = np.stack([r * np.sin(al), r * np.cos(al)], 1)
    nose = np.array([0.0, radius(s, np.array([0.0]))[0] + s["nose_prot"]])
    return poly, nose


def truth_indices(s):
    poly, nose = truth_outline(s)
    g = measure_head(poly, nose)
    return g["ci"], g["cvai"]


def head_surface(s, n_al, n_be, n_up=None):
    """Vault (beta >= 0) and lower head (beta < 0) grid points and outward normals."""
    al = np.linspace(0, 2 * math.pi, n_al, endpoint=False)
    r = radius(s, al)
    b = s["L"] / 2
    hz = s["hz"] * b * 0.9
    hl = s["hl"]
    n_up = n_up or n_be - n_be // 2
    be = np.concatenate([np.linspace(-1.35, 0, n_be // 2, endpoint=False), np.linspace(0, math.pi / 2 - 1e-3, n_up)])
    A, Bt = np.meshgrid(al, be, indexing="xy")  # (n_be, n_al)
    R = r[None, :]
    # Vault profile: slightly flatter top than an ellipse; lower part narrows to the chin/neck.
    cb = np.cos(Bt)
    sb = np.sin(Bt)
    up = Bt >= 0
    rad = np.where(up, R * cb ** 0.85, R * cb ** 1.1)
    z = np.where(up, hz * sb, hl * sb)
    x = rad * np.sin(A)
    y = rad * np.cos(A)
    P = np.stack([x, y, z], -1)
    # normals by finite differences on the grid
    dA = np.roll(P, -1, axis=1) - np.roll(P, 1, axis=1)
    dB = np.gradient(P, axis=0)
    N = np.cross(dA, dB)
    N /= np.linalg.norm(N, axis=-1, keepdims=True) + 1e-9
    flip = (N * (P - np.array([0, 0, -1.0]))).sum(-1) < 0
    N[flip] *= -1
    return P, N, A, Bt, hz


def ellipsoid(center, axes, n_u, n_v, rot=None):
    u = np.linspace(0, 2 * math.pi, n_u, endpoint=False)
    v = np.linspace(-math.pi / 2, math.pi / 2, n_v)
    U, V = np.meshgrid(u, v)
    e = np.stack([np.cos(V) * np.cos(U), np.cos(V) * np.sin(U), np.sin(V)], -1).reshape(-1, 3)
    P = e * axes
    N = e / axes
    N /= np.linalg.norm(N, axis=1, keepdims=True)
    if rot is not None:
        P = P @ rot.T
        N = N @ rot.T
    return P + center, N


def capsule(p0, p1, rad, n_len, n_around):
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    Lc = np.linalg.norm(d)
    d /= Lc
    tmp = np.array([0, 0, 1.0]) if abs(d[2]) < 0.9 else np.array([1.0, 0, 0])
    e1 = np.cross(d, tmp)
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(d, e1)
    t = np.linspace(-rad, Lc + rad, n_len)
    th = np.linspace(0, 2 * math.pi, n_around, endpoint=False)
    T, TH = np.meshgrid(t, th)
    # radius tapering at the ends (rounded caps)
    rr = np.where(T < 0, np.sqrt(np.maximum(rad ** 2 - T ** 2, 0)), np.where(T > Lc, np.sqrt(np.maximum(rad ** 2 - (T - Lc) ** 2, 0)), rad))
    nrm = np.cos(TH)[..., None] * e1 + np.sin(TH)[..., None] * e2
    P = p0 + T[..., None] * d + rr[..., None] * nrm
    return P.reshape(-1, 3), nrm.reshape(-1, 3)


def rot_axis(axis, ang):
    axis = np.asarray(axis, float)
    axis /= np.linalg.norm(axis)
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(ang) * K + (1 - math.cos(ang)) * K @ K


# ----------------------------------------------------------------------------- textures

def value_noise(rng, h, w, scale, octaves=3):
    out = np.zeros((h, w), np.float32)
    amp = 1.0
    tot = 0
    for o in range(octaves):
        gh, gw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
        g = rng.random((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
        tot += amp
        amp *= 0.5
        scale /= 2
        if scale < 2:
            break
    return out / tot


def background(rng, h, w):
    H2, W2 = (h + 1) // 2, (w + 1) // 2
    return cv2.resize(_background(rng, H2, W2), (w, h), interpolation=cv2.INTER_LINEAR)


def _background(rng, h, w):
    kind = rng.choice(["floor", "blanket", "carseat", "sofa", "plain", "bed"])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "floor":
        base = rng.uniform([0.35, 0.22, 0.12], [0.8, 0.62, 0.45])
        ang = rng.uniform(0, math.pi)
        t = xx * math.cos(ang) + yy * math.sin(ang)
        plank = rng.uniform(30, 90)
        idx = np.floor(t / plank)
        grain = np.sin((xx * -math.sin(ang) + yy * math.cos(ang)) * rng.uniform(0.05, 0.2) + idx * 7 + 6 * value_noise(rng, h, w, 40))
        shade = 0.85 + 0.1 * grain + 0.1 * np.sin(idx * 12.9898) ** 2
        shade *= np.where((t % plank) < 1.5, 0.6, 1.0)
        img = base[None, None] * shade[..., None]
    elif kind in ("blanket", "bed"):
        base = rng.uniform(0.45, 0.98, 3)
        base2 = rng.uniform(0.3, 0.98, 3)
        folds = value_noise(rng, h, w, rng.uniform(40, 120))
        img = base[None, None] * (0.7 + 0.4 * folds[..., None])
        pat = rng.integers(0, 3)
        if pat == 1:
            per = rng.uniform(10, 40)
            m = ((xx // per + yy // per) % 2 == 0)
            img = np.where(m[..., None], img, base2[None, None] * (0.7 + 0.4 * folds[..., None]))
        elif pat == 2:
            per = rng.uniform(15, 50)
            m = (np.hypot((xx % per) - per / 2, (yy % per) - per / 2) < per * 0.2)
            img = np.where(m[..., None], base2[None, None] * (0.7 + 0.4 * folds[..., None]), img)
    elif kind == "carseat":
        base = rng.uniform(0.08, 0.35) * np.array([1, 1, 1]) + rng.uniform(-0.04, 0.04, 3)
        tex = 0.85 + 0.15 * np.sin(xx * 1.3) * np.sin(yy * 1.3) + 0.2 * value_noise(rng, h, w, 60)
        img = base[None, None] * tex[..., None]
        for _ in range(rng.integers(1, 3)):
            x0 = rng.uniform(0, w)
            ang = rng.uniform(-0.5, 0.5)
            d = np.abs((xx - x0) * math.cos(ang) + (yy - h / 2) * math.sin(ang))
            sc = rng.uniform(0.05, 0.3, 3)
            img = np.where((d < rng.uniform(8, 20))[..., None], sc[None, None] * tex[..., None], img)
    elif kind == "sofa":
        base = rng.uniform(0.2, 0.8, 3)
        img = base[None, None] * (0.75 + 0.35 * value_noise(rng, h, w, 80)[..., None])
    else:
        base = rng.uniform(0.5, 0.95, 3)
        g = (xx / w * rng.uniform(-0.3, 0.3) + yy / h * rng.uniform(-0.3, 0.3))
        img = base[None, None] * (0.9 + g[..., None])
    img = img * (0.95 + 0.1 * value_noise(rng, h, w, 8, 2)[..., None])
    return np.clip(img, 0, 1).astype(np.float32)


# ----------------------------------------------------------------------------- scene sampling

def sample_scene(rng, cap=None, reasons=None, kind=None, good=None):
    """Sample all scene parameters. reasons: list of reason indices to impose (None: random)."""
    if cap is None:
        cap = rng.random() < 0.5
    if reasons is None:
        if good is None:
            good = rng.random() < 0.5
        if good:
            reasons = []
        else:
            k = 1 if rng.random() < 0.8 else 2
            w = np.array([1.2, 1.0, 1.3, 1.0, 1.0, 1.0, 1.0, 1.0])
            reasons = list(rng.choice(8, size=k, replace=False, p=w / w.sum()))
            if 7 in reasons:
                reasons = [r for r in reasons if r not in (1, 4, 3, 6)] or [7]
            if 4 in reasons and 1 in reasons:
                reasons.remove(1)
            if 3 in reasons and 6 in reasons:
                reasons.remove(6)
    R = set(int(r) for r in reasons)
    p = {"cap": bool(cap), "want": sorted(R)}
    p["shape"] = sample_shape(rng, kind)
    if 1 in R:
        p["shape"]["nose_prot"] = rng.uniform(-0.8, 0.2) if rng.random() < 0.6 else p["shape"]["nose_prot"]
    # head pose
    small = lambda: math.radians(rng.uniform(-3.5, 3.5))
    p["pitch"], p["roll"], p["oblique"] = small(), small(), small()
    p["oblique_side"] = rng.choice([-1, 1])
    if 1 in R and p["shape"]["nose_prot"] > 0.2:
        p["pitch"] = -math.radians(rng.uniform(10, 22))  # chin down hides the nose
    if 4 in R:
        p["pitch"] = math.radians(rng.uniform(22, 42))
    if 7 in R:
        p["pitch"] = -math.radians(rng.uniform(45, 75))
    if 6 in R:
        p["roll"] = math.radians(rng.uniform(16, 32)) * rng.choice([-1, 1])
    if 3 in R:
        p["oblique"] = math.radians(rng.uniform(16, 30))
    p["yaw"] = rng.uniform(0, 2 * math.pi)  # in-plane orientation of the head
    # camera
    p["dist"] = rng.uniform(25, 55)
    p["cam_tilt"] = (math.radians(rng.uniform(-4, 4)), math.radians(rng.uniform(-4, 4)))
    p["aspect"] = rng.choice([1.0, 4 / 3, 3 / 4, 16 / 9, 9 / 16], p=[0.25, 0.3, 0.3, 0.075, 0.075])
    p["head_frac"] = rng.uniform(0.25, 0.9) if rng.random() < 0.75 else rng.uniform(0.5, 0.85)
    p["cut"] = False
    p["hand_over"] = False
    if 2 in R:
        if rng.random() < 0.45:
            p["cut"] = True
        else:
            p["hand_over"] = True
    p["hand_good"] = (not p["hand_over"]) and rng.random() < 0.35
    # appearance
    t = rng.uniform(0, 5)
    i = int(min(t, 4.999))
    p["skin"] = SKIN[i] * (1 - (t - i)) + SKIN[min(i + 1, 5)] * (t - i) + rng.uniform(-0.02, 0.02, 3)
    t = rng.uniform(0, 5)
    i = int(min(t, 4.999))
    p["adult_skin"] = SKIN[i] * (1 - (t - i)) + SKIN[min(i + 1, 5)] * (t - i)
    p["hair_type"] = rng.choice(["wet", "dry", "thick", "none"], p=[0.45, 0.2, 0.15, 0.2]) if not cap else rng.choice(["wet", "dry", "none"])
    p["hair_color"] = HAIR[rng.integers(len(HAIR))] * rng.uniform(0.8, 1.1)
    p["cap_color"] = rng.uniform(0.15, 0.98, 3) if rng.random() < 0.7 else np.full(3, rng.uniform(0.5, 0.98))
    p["cap_edge"] = math.radians(rng.uniform(-28, -10))
    p["sticker_color"] = rng.choice([0, 1, 2])
    p["sticker_off"] = rng.uniform(-1.8, 1.8, 2)
    p["hair_artifact"] = 5 in R
    p["cloth"] = rng.uniform(0.1, 0.95, 3)
    p["light"] = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0])
    p["ambient"] = rng.uniform(0.3, 0.55)
    p["blurry"] = 0 in R
    p["seed"] = int(rng.integers(2 ** 31))
    if SCENES in ("0.6", "0.6e", "0.6v"):
        p["sticker"] = bool(rng.random() < (0.6 if cap else 0.3))
        p["sticker_rgb"] = rng.uniform(0.05, 1.0, 3) if rng.random() < 0.6 else None
        p["sticker_cm"] = STICKER_DIAMETER_CM if rng.random() < 0.5 else float(rng.uniform(1.8, 4.5))
        p["sticker_glare"] = bool(rng.random() < 0.3)
        p["shoulders"] = str(rng.choice(["under", "behind", "front", "side", "absent"]))
        p["shoulder_shift"] = rng.uniform(2.0, 7.0, 2)
        p["ear_scale"] = rng.uniform(0.75, 1.25, 2)
        # hair models, noses, covered stickers, clutter and the phone's effects (look06.py)
        p.update(look06.sample(rng, cap))
        if not cap:
            p["hair_type"] = p["hair_model"] if p["hair_model"] in ("wet", "dry", "thick", "none") else "dry"
        if SCENES == "0.6e":  # slivers of nose, cloth and thin hair at the vault's edge (models/head-contour/lab/0097)
            p.update(look06.sample_edge(p, cap, R))
        if SCENES == "0.6v":  # 0.6e with more slivers kept visible and hair-toned surroundings (models/head-contour/lab/0101)
            p.update(look06.sample_edge(p, cap, R, look06.EDGE_SLIVER_V, mark=True))
            p.update(look06.sample_surround(p, cap))
    return p


# ----------------------------------------------------------------------------- rendering

def render_sampled(p):
    """render(p), except that a 0.6v sliver nose render()'s rule calls not visible is pushed out a step at
    a time until it shows (look06.push_sliver; the label rule itself is unchanged). Other scenes: render(p)."""
    r = render(p)
    for _ in range(look06.SLIVER_STEPS if p.get("sliver") else 0):
        if r["nose"] is not None:
            break
        look06.push_sliver(p)
        r = render(p)
    return r


def _hair_texture(Pn, rng_seed, whorl):
    """Strand texture on the head surface, radiating from the crown whorl. Pn: unit directions."""
    d = Pn - whorl
    ang = np.arctan2(d[..., 0], d[..., 1])
    rr = np.linalg.norm(d, axis=-1)
    r2 = np.random.default_rng(rng_seed)
    ph = r2.uniform(0, 6.28)
    t = np.sin(ang * r2.uniform(50, 90) + 5 * np.sin(rr * 9 + ph) + 2 * np.sin(ang * 7))
    fade = np.clip(rr * 3, 0, 1)  # strands converge at the whorl: fade the stripes there (no aliasing)
    return 0.5 + 0.35 * t * fade


def render(p, max_side=None):
    rng = np.random.default_rng(p["seed"])
    cv2.setRNGSeed(p["seed"] % (2 ** 31))
    s = p["shape"]
    b = s["L"] / 2
    # ---- image size and camera intrinsics
    S = int(np.clip(120 / p["head_frac"], 224, 400))
    if max_side:
        S = min(S, max_side)
    asp = p["aspect"]
    if asp >= 1:
        H, W = S, int(round(S * asp))
    else:
        W, H = S, int(round(S / asp))
    if p.get("size"):
        W, H = p["size"]
    Rmax = float(radius(s, np.linspace(0, 2 * math.pi, 360)).max())
    hz = s["hz"] * b * 0.9
    depth_eq = p["dist"] + hz
    f = p["head_frac"] * min(H, W) * depth_eq / (2 * Rmax)
    ppc = f / depth_eq  # pixels per cm at the equator
    # ---- geometry in head coordinates
    n_al = int(np.clip(2 * math.pi * Rmax * ppc * 0.8, 120, 2600))
    n_be = int(np.clip(math.pi * (Rmax + hz) / 2 * ppc * 0.85, 60, 900))
    # the upper dome faces the camera (and is nearer): sample it densely so the 2x2 splats leave no gaps
    n_up = int(np.clip(math.pi / 2 * max(Rmax, hz) * ppc * 1.1, 40, 900))
    P, N, A, Bt, hz = head_surface(s, n_al, n_be, n_up)
    front = np.cos(A) > math.cos(math.radians(55))
    lab = np.where(Bt >= 0, L_VAULT, L_LOWER)
    # vault continues below the equator at the back and sides (occiput), face at the front
    beta_face = np.where(front, math.radians(-9), math.radians(-55))
    lab = np.where((Bt < 0) & (Bt >= beta_face), L_VAULT, lab)
    skin = p["skin"]
    col = np.broadcast_to(skin, P.shape).copy()
    Pn = P / (np.linalg.norm(P, axis=-1, keepdims=True) + 1e-9)
    # face painting: brows, eyes, mouth on the lower front
    def spot(al0, be0, wa, wb):
        return ((A - al0 + math.pi) % (2 * math.pi) - math.pi) ** 2 / wa ** 2 + (Bt - be0) ** 2 / wb ** 2 < 1
    for sgn in (-1, 1):
        col[spot(sgn * 0.42, math.radians(-21), 0.16, 0.035)] *= 0.35
        col[spot(sgn * 0.42, math.radians(-15), 0.2, 0.02)] *= 0.7
    col[spot(0, math.radians(-50), 0.22, 0.03)] *= np.array([0.75, 0.45, 0.45])
    # hair / cap on the vault
    whorl = np.array([rng.uniform(-0.2, 0.2), -0.35, 0.9])
    whorl /= np.linalg.norm(whorl)
    hairline = (Bt > np.where(front, math.radians(-6), math.radians(-40)))
    if p["hair_type"] != "none":
        tex = _hair_texture(Pn, p["seed"], whorl)[..., None]
        hc = p["hair_color"]
        dens = {"wet": 0.9, "dry": 0.8, "thick": 1.0}[p["hair_type"]]
        hair_col = hc * (0.55 + 0.7 * tex) if p["hair_type"] != "wet" else hc * 0.6 * (0.5 + 0.8 * tex)
        m = hairline[..., None]
        col = np.where(m, dens * hair_col + (1 - dens) * skin, col)
    else:
        tex = _hair_texture(Pn, p["seed"], whorl)[..., None]
        col = np.where(hairline[..., None], skin * (0.93 + 0.1 * tex) * 0.97 + 0.03 * p["hair_color"], col)
    if not p["cap"]:
        recoloured = look06.hair_colour(p, Pn, tex, hairline, col, skin)
        col = col if recoloured is None else recoloured
    spec = np.zeros(P.shape[:-1], np.float32)
    if p["hair_type"] == "wet" and not p["cap"]:
        spec = np.where(hairline, 0.5, 0.05)
    if p["cap"]:
        capm = Bt >= p["cap_edge"] + 0.06 * np.sin(3 * A)
        k_rib = rng.uniform(120, 220)
        rib_px = np.cos(Bt) * 2 * math.pi * Rmax * ppc / k_rib  # rib period in pixels
        ctex = 0.9 + 0.1 * np.sin(A * k_rib) * np.clip(rib_px / 2 - 1, 0, 1)
        cc = p["cap_color"] * ctex[..., None]
        if rng.random() < 0.3:
            stripe = (np.sin(Bt * rng.uniform(15, 30)) > 0.3)[..., None]
            cc = np.where(stripe, cc * 0.6 + 0.4 * rng.uniform(0.2, 1, 3), cc)
        col = np.where(capm[..., None], cc, col)
        brim = capm & (Bt < p["cap_edge"] + 0.12 + 0.06 * np.sin(3 * A))
        col = np.where(brim[..., None], col * 0.9, col)
        # the brim below the equator is not head
        lab = np.where(brim & (Bt < -0.05), L_BRIM, lab)
        P = np.where(capm[..., None], P + N * 0.12, P)
        P = np.where(brim[..., None], P + N * 0.12, P)
        spec = np.where(capm, 0.05, spec)
    pts = [P.reshape(-1, 3)]
    nrm = [N.reshape(-1, 3)]
    cols = [col.reshape(-1, 3)]
    labs = [lab.reshape(-1)]
    specs = [spec.reshape(-1)]

    def add(Pp, Nn, c, l, sp=0.05):
        pts.append(Pp)
        nrm.append(Nn)
        cols.append(np.broadcast_to(np.asarray(c, np.float32), Pp.shape).copy() if np.ndim(c) == 1 else c)
        labs.append(np.full(len(Pp), l))
        specs.append(np.full(len(Pp), sp, np.float32))

    den = max(ppc * 0.9, 3)
    # nose
    ytip = radius(s, np.array([0.0]))[0] + s["nose_prot"]
    ztip = -0.53 * s["hl"]
    nax = look06.nose_axes(p, [0.75, 0.75, 0.6])
    Pp, Nn = ellipsoid(np.array([0, ytip - nax[1], ztip]), nax, int(2 * math.pi * 0.8 * den), int(math.pi * 0.8 * den))
    add(Pp, Nn, skin * np.asarray(p.get("nose_tint", [1.05, 0.97, 0.95])), L_NOSE)
    nose3d = np.array([0, ytip, ztip])
    # cheeks
    for sgn in (-1, 1):
        c = np.array([sgn * 0.52 * radius(s, np.array([sgn * 1.0]))[0], 0.62 * ytip, -0.6 * s["hl"]])
        Pp, Nn = ellipsoid(c, np.array([2.6, 2.4, 2.2]), int(17 * den), int(8 * den))
        add(Pp, Nn, skin * np.array([1.05, 0.92, 0.9]), L_CHEEK)
    # ears
    ear_shift = s["flat_side"] * s["flat"] * 8
    for sgn in (-1, 1):
        re = radius(s, np.array([sgn * math.pi / 2]))[0]
        c = np.array([sgn * (re * 0.93 + 0.15), -0.3 + (ear_shift * (1 if sgn == s["flat_side"] else 0)), -0.36 * s["hl"]])
        rot = rot_axis([0, 1, 0], sgn * math.radians(rng.uniform(25, 45)))
        k_ear = p["ear_scale"][(sgn + 1) // 2] if "ear_scale" in p else 1.0  # unequal ears in good photos too
        Pp, Nn = ellipsoid(c, np.array([0.35, 1.7 * k_ear, 2.4 * k_ear]), int(13 * den), int(8 * den), rot)
        add(Pp, Nn, skin * np.array([1.05, 0.9, 0.88]), L_EAR)
    # shoulders / clothing
    cl = p["cloth"]
    sh_c = np.array([0, -0.15 * b, -s["hl"] - 4.5])
    where = p.get("shoulders", "under")
    dx, dy = p.get("shoulder_shift", (0.0, 0.0))
    sh_c = sh_c + {"under": [0, 0, 0], "behind": [0, -dy, 0], "front": [0, dy, 0], "side": [dx * 1.3 * (1 if dy > 4.5 else -1), 0, 0], "absent": [0, 0, 0]}[where]
    Pp, Nn = ellipsoid(sh_c, np.array([13.0, 7.5, 4.5]), int(60 * min(den, 6)), int(20 * min(den, 6)))
    ctex = 0.85 + 0.15 * np.sin(Pp[:, 0] * rng.uniform(2, 6) + Pp[:, 1] * rng.uniform(0, 3)) if rng.random() < 0.5 else np.ones(len(Pp))
    if where != "absent":
        add(Pp, Nn, cl[None] * ctex[:, None], L_BODY)
    look06.edge_cloth(p, s, radius, add, den, L_BODY)  # 0.6e only
    # hair artifacts: strands/tufts sticking out of the outline
    if p["hair_artifact"]:
        nt = rng.integers(4, 12)
        al0 = rng.uniform(0, 2 * math.pi)
        spread = rng.uniform(0.3, 1.6)
        hc = p["hair_color"] if p["hair_type"] != "none" or p["cap"] else HAIR[rng.integers(len(HAIR))]
        for k in range(nt):
            a_ = al0 + rng.uniform(-spread, spread)
            r0 = radius(s, np.array([a_]))[0]
            be0 = rng.uniform(-0.25, 0.45) if not p["cap"] else p["cap_edge"] - 0.05
            start = np.array([r0 * math.cos(be0) * math.sin(a_), r0 * math.cos(be0) * math.cos(a_), hz * math.sin(be0) if be0 > 0 else s["hl"] * math.sin(be0)])
            out = np.array([math.sin(a_), math.cos(a_), rng.uniform(0.0, 0.8)])
            out /= np.linalg.norm(out)
            length = rng.uniform(1.5, 4.0)
            curl = rng.uniform(-0.6, 0.6)
            thick = rng.uniform(0.15, 0.4)
            nseg = 6
            prev = start
            for j in range(nseg):
                ang = curl * (j + 1) / nseg
                d = rot_axis([0, 0, 1], ang) @ out
                nxt = prev + d * length / nseg
                Pp, Nn = capsule(prev, nxt, thick * (1 - 0.5 * j / nseg), max(4, int(length / nseg * den * 1.5)), max(6, int(thick * den * 7)))
                add(Pp, Nn, hc * rng.uniform(0.4, 0.8), L_HAIR, 0.3)
                prev = nxt
    if p["hair_type"] in ("dry", "thick") and not p["cap"]:
        # short fuzz along the outline: small, not an artifact
        for k in range(int(rng.integers(10, 30))):
            a_ = rng.uniform(0, 2 * math.pi)
            r0 = radius(s, np.array([a_]))[0]
            start = np.array([r0 * 0.99 * math.sin(a_), r0 * 0.99 * math.cos(a_), rng.uniform(-0.3, 1.5)])
            d = np.array([math.sin(a_), math.cos(a_), 0.6])
            Pp, Nn = capsule(start, start + d * rng.uniform(0.1, 0.25), 0.05, 4, 5)
            add(Pp, Nn, p["hair_color"] * 0.8, L_HAIR, 0.1)
    if "hair_model" in p:
        look06.hair_edge(p, s, radius, capsule, ellipsoid, add, hz, den, L_HAIR)
    # sticker
    sticker_c3 = None
    if p.get("sticker", p["cap"]):
        ox, oy = p["sticker_off"]
        # find the surface point above (ox, oy)
        al_s = math.atan2(ox, oy)
        rr_ = radius(s, np.array([al_s]))[0]
        q = min(math.hypot(ox, oy) / rr_, 0.8)
        be_s = math.acos(q)
        c = np.array([rr_ * (q ** (1 / 0.85)) * math.sin(al_s) if q > 0 else 0, rr_ * (q ** (1 / 0.85)) * math.cos(al_s), hz * math.sin(be_s)])
        c = np.array([ox, oy, hz * math.sin(be_s)])
        # normal: from grid nearest point
        d2 = ((P.reshape(-1, 3) - c) ** 2).sum(1)
        k = int(np.argmin(d2))
        c = P.reshape(-1, 3)[k]
        nn = N.reshape(-1, 3)[k]
        e1 = np.cross(nn, [0, 1, 0.0])
        e1 /= np.linalg.norm(e1)
        e2 = np.cross(nn, e1)
        rs = p.get("sticker_cm", STICKER_DIAMETER_CM) / 2
        nr = int(rs * den * 1.5) + 2
        rr2, th = np.meshgrid(np.linspace(0, rs, nr), np.linspace(0, 2 * math.pi, int(2 * math.pi * rs * den * 1.5) + 6, endpoint=False))
        Pp = c + 0.22 * nn + (rr2[..., None] * (np.cos(th)[..., None] * e1 + np.sin(th)[..., None] * e2))
        Pp = Pp.reshape(-1, 3)
        Nn = np.broadcast_to(nn, Pp.shape).copy()
        sc = [np.array([0.97, 0.97, 0.95]), np.array([0.98, 0.85, 0.2]), np.array([0.2, 0.7, 0.95])][p["sticker_color"]]
        if p.get("sticker_rgb") is not None:
            sc = p["sticker_rgb"]
        ring = (rr2.reshape(-1) > rs * 0.8) & (rr2.reshape(-1) < rs * 0.9)
        ccol = np.where(ring[:, None], sc * 0.4, sc)
        dot = rr2.reshape(-1) < rs * 0.12
        ccol = np.where(dot[:, None], sc * 0.3, ccol)
        keep = look06.sticker_keep(p, rr2, th)  # partly covered (0.6)
        Pp, Nn, ccol = Pp[keep], Nn[keep], ccol[keep]
        add(Pp, Nn, ccol, L_STICKER, 1.0 if p.get("sticker_glare") else 0.4)
        sticker_c3 = c
    # hands
    hand_specs = []
    if p["hand_over"]:
        hand_specs.append("over")
    if p["hand_good"]:
        hand_specs.append("side")
    for hs in hand_specs:
        a_ = rng.uniform(0, 2 * math.pi)
        if hs == "over":
            a_ = rng.uniform(-2.6, 2.6) + math.pi  # avoid covering the nose mostly
        r0 = radius(s, np.array([a_]))[0]
        radial = np.array([math.sin(a_), math.cos(a_), 0])
        tang = np.array([math.cos(a_), -math.sin(a_), 0])
        ac = p["adult_skin"]
        if hs == "over":
            depth_in = rng.uniform(1.0, 4.0)
            tip = radial * (r0 - depth_in) + np.array([0, 0, hz * math.sqrt(max(0, 1 - ((r0 - depth_in) / r0) ** 2)) + 0.7])
            base = radial * (r0 + rng.uniform(3, 6)) + np.array([0, 0, rng.uniform(-1, 2)])
        else:
            tip = radial * (r0 + rng.uniform(2.4, 3.8)) + tang * rng.uniform(-2, 2) + np.array([0, 0, rng.uniform(-6, -3)])
            base = tip + radial * rng.uniform(4, 6) + np.array([0, 0, -1.0])
        nf = int(rng.integers(2, 5)) if hs == "over" else int(rng.integers(3, 5))
        off0 = -(nf - 1) / 2 * 1.8
        for j in range(nf):
            o = tang * (off0 + 1.8 * j) * rng.uniform(0.9, 1.1)
            t_ = tip + o + radial * rng.uniform(-0.6, 0.6)
            Pp, Nn = capsule(base + o, t_, 0.8, int(np.linalg.norm(t_ - base) * den * 1.3) + 4, int(5 * den) + 6)
            add(Pp, Nn, ac, L_HAND)
        Pp, Nn = ellipsoid(base + radial * 3.5, np.array([5.0, 5.0, 1.6]), int(30 * min(den, 8)), int(12 * min(den, 8)),
                           rot_axis([0, 0, 1], -a_))
        add(Pp, Nn, ac, L_HAND)

    Pw = np.concatenate(pts).astype(np.float32)
    Nw = np.concatenate(nrm).astype(np.float32)
    Cw = np.concatenate(cols).astype(np.float32)
    Lw = np.concatenate(labs).astype(np.int32)
    Sw = np.concatenate(specs).astype(np.float32)
    # ---- head pose
    Rh = rot_axis([0, 0, 1], p["yaw"]) @ rot_axis([1, 0, 0], p["pitch"]) @ rot_axis([0, 1, 0], p["roll"])
    q = np.array([p["oblique_side"] * math.sin(math.pi / 4), math.cos(math.pi / 4), 0])
    Rh = Rh @ rot_axis(np.array([q[1], -q[0], 0]), p["oblique"])
    # ---- camera: position the head in the frame
    cx, cy = W / 2, H / 2
    if p["cut"]:
        side = rng.integers(4)
        frac_out = rng.uniform(0.12, 0.35)
        rpx = p["head_frac"] * min(H, W) / 2
        tx = rng.uniform(-0.2, 0.2) * W
        ty = rng.uniform(-0.2, 0.2) * H
        if side == 0:
            tx = -W / 2 + rpx * (1 - 2 * frac_out)
        elif side == 1:
            tx = W / 2 - rpx * (1 - 2 * frac_out)
        elif side == 2:
            ty = -H / 2 + rpx * (1 - 2 * frac_out)
        else:
            ty = H / 2 - rpx * (1 - 2 * frac_out)
    else:
        rpx = p["head_frac"] * min(H, W) / 2 * 1.12
        mx = max(0.0, W / 2 - rpx - 0.02 * W)
        my = max(0.0, H / 2 - rpx - 0.02 * H)
        tx, ty = rng.uniform(-mx, mx) * 0.8, rng.uniform(-my, my) * 0.8
    Xw = Pw @ Rh.T.astype(np.float32)
    Nw = Nw @ Rh.T.astype(np.float32)
    nose_w = Rh @ nose3d
    off = np.array([tx / ppc, -ty / ppc, 0]) * 0.5
    Xw = Xw + off.astype(np.float32)
    nose_w = nose_w + off
    Rc = rot_axis([1, 0, 0], p["cam_tilt"][0]) @ rot_axis([0, 1, 0], p["cam_tilt"][1])
    C = np.array([0, 0, hz + p["dist"]])

    def project(X):
        pc = (X - C.astype(X.dtype)) @ Rc.astype(X.dtype)  # = Rc^T (X - C)
        dep = -pc[..., 2]
        u = cx + f * pc[..., 0] / dep
        v = cy - f * pc[..., 1] / dep
        return u, v, dep

    u, v, dep = project(Xw)
    vm = Lw == L_VAULT
    # shift the principal point so the head lands where the scene wants it
    bx0, bx1, by0, by1 = u[vm].min(), u[vm].max(), v[vm].min(), v[vm].max()
    if p["cut"]:
        side = rng.integers(4)
        fo = rng.uniform(0.1, 0.35)
        du = dv = 0.0
        if side == 0:
            du = -(bx0 + fo * (bx1 - bx0))
        elif side == 1:
            du = W - (bx1 - fo * (bx1 - bx0))
        elif side == 2:
            dv = -(by0 + fo * (by1 - by0))
        else:
            dv = H - (by1 - fo * (by1 - by0))
    else:
        m = 0.03 * min(W, H) + 2
        lo, hi = m - bx0, W - m - bx1
        du = float(np.clip(0.0, lo, hi)) if lo <= hi else (lo + hi) / 2
        lo, hi = m - by0, H - m - by1
        dv = float(np.clip(0.0, lo, hi)) if lo <= hi else (lo + hi) / 2
    if p.get("shift") is not None:  # explicit placement (video clips)
        du = p["shift"][0] - (bx0 + bx1) / 2 + W / 2 - cx + cx - W / 2
        dv = p["shift"][1] - (by0 + by1) / 2 + H / 2 - cy + cy - H / 2
    cx, cy = cx + du, cy + dv
    u, v = u + du, v + dv
    vault_cut = float(((u[vm] < 0) | (u[vm] >= W) | (v[vm] < 0) | (v[vm] >= H)).mean()) if vm.any() else 0.0
    # ---- shading
    light = (p["light"] / np.linalg.norm(p["light"])).astype(np.float32)
    lam = np.clip(Nw @ light, 0, 1)
    view = np.array([0, 0, 1.0], np.float32)
    hvec = (light + view) / np.linalg.norm(light + view)
    sp = np.clip(Nw @ hvec, 0, 1) ** 30 * Sw
    shade = p["ambient"] + (1 - p["ambient"]) * lam
    rgb = (Cw * shade[:, None] + sp[:, None]).astype(np.float32)
    # ---- z-buffer with 2x2 splats (far to near, near wins)
    ok = (dep > 1) & (u > -1) & (u < W + 1) & (v > -1) & (v < H + 1)
    u, v, dep, rgb, Lw2 = u[ok], v[ok], dep[ok], rgb[ok], Lw[ok]
    order = np.argsort(-dep, kind="stable")
    u, v, dep, rgb, Lw2 = u[order], v[order], dep[order], rgb[order], Lw2[order]
    img = p["bg_fn"](H, W) if p.get("bg_fn") else background(rng, H, W)
    img = look06.clutter(p, img)
    img = look06.surround(p, img)  # 0.6v only
    u0 = np.floor(u - 0.5).astype(np.int64)
    v0 = np.floor(v - 0.5).astype(np.int64)
    # padded buffers so the 2x2 footprint never needs bounds checks
    Wp = W + 4
    base = (v0 + 2) * Wp + (u0 + 2)
    pad_img = np.zeros(((H + 4) * Wp, 3), np.float32)
    pad_lab = np.zeros((H + 4) * Wp, np.int32)
    wr = np.zeros((H + 4) * Wp, bool)
    for o in (0, 1, Wp, Wp + 1):
        pad_img[base + o] = rgb
        pad_lab[base + o] = Lw2
        wr[base + o] = True
    wr = wr.reshape(H + 4, Wp)[2:H + 2, 2:W + 2]
    img = np.where(wr[..., None], pad_img.reshape(H + 4, Wp, 3)[2:H + 2, 2:W + 2], img)
    zbuf_lab = pad_lab.reshape(H + 4, Wp)[2:H + 2, 2:W + 2].copy()
    # full vault silhouette ignoring occluders other than the head itself (for the incomplete check)
    vault_pts = (Lw2 == L_VAULT)
    full = np.zeros((H + 4, W + 4), np.uint8)
    uu = np.clip(u0[vault_pts] + 2, 0, W + 3)
    vv = np.clip(v0[vault_pts] + 2, 0, H + 3)
    for du in (0, 1):
        for dv in (0, 1):
            full[vv + dv, uu + du] = 1
    full_in = full[2:H + 2, 2:W + 2]
    # ---- shadows: head and hands onto what is below them
    lx, ly = -light[0] / light[2], light[1] / light[2]
    occ_head = np.isin(zbuf_lab, [L_VAULT, L_LOWER, L_EAR, L_NOSE, L_CHEEK, L_BRIM, L_STICKER, L_HAIR]).astype(np.float32)
    occ_hand = (zbuf_lab == L_HAND).astype(np.float32)
    sh = np.zeros((H, W), np.float32)
    for occ, dist_cm, recv in ((occ_head, 5.0, [L_BG, L_BODY]), (occ_hand, 2.0, [L_VAULT, L_STICKER, L_EAR, L_HAIR, L_BRIM, L_BODY, L_BG])):
        if occ.any():
            M = np.float32([[1, 0, lx * dist_cm * ppc], [0, 1, ly * dist_cm * ppc]])
            shifted = cv2.warpAffine(occ, M, (W, H))
            k = int(ppc * 1.2) * 2 + 1
            shifted = cv2.GaussianBlur(shifted, (k, k), 0)
            sh = np.maximum(sh, shifted * np.isin(zbuf_lab, recv))
    img *= (1 - 0.45 * sh)[..., None]
    # ---- masks
    head_mask = (np.isin(zbuf_lab, [L_VAULT, L_STICKER]) | ((zbuf_lab == L_HAIR) & (full_in > 0))).astype(np.uint8)
    # fill pinholes
    head_mask = cv2.morphologyEx(head_mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    sticker_mask = (zbuf_lab == L_STICKER).astype(np.uint8)
    sticker_mask = cv2.morphologyEx(sticker_mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    nose_px = int((zbuf_lab == L_NOSE).sum())
    # hole filling of rendered colours (pixels left unwritten inside objects are rare with 2x2 splats)
    # ---- outcome labels
    u_n, v_n, _ = project(nose_w[None])
    nose_uv = (float(u_n[0]), float(v_n[0]))
    head_diam = 2 * math.sqrt(max(full_in.sum(), 1) / math.pi)
    nose_visible = nose_px >= max(4, (0.02 * head_diam) ** 2) and 0 <= nose_uv[0] < W and 0 <= nose_uv[1] < H
    # the visible nose must be near its tip
    if nose_visible:
        ys_, xs_ = np.nonzero(zbuf_lab == L_NOSE)
        dmin = np.min(np.hypot(xs_ + 0.5 - nose_uv[0], ys_ + 0.5 - nose_uv[1]))
        if dmin > 0.04 * head_diam:
            nose_visible = False
    # projected full vault outside the frame?
    n_out = ((u0[vault_pts] < 0) | (u0[vault_pts] >= W) | (v0[vault_pts] < 0) | (v0[vault_pts] >= H)).sum()
    cut_frac = n_out / max(1, vault_pts.sum()) + vault_cut
    occluded = ((full_in > 0) & np.isin(zbuf_lab, [L_HAND])).sum() / max(1, full_in.sum())
    # the head's own outline hidden by a hand: occluded pixels that touch the silhouette border
    reasons = set(p["want"])
    reasons.discard(1)
    reasons.discard(2)
    if not nose_visible and 7 not in reasons and 4 not in reasons:
        reasons.add(1)
    edge = cv2.dilate(full_in, np.ones((3, 3), np.uint8)) - cv2.erode(full_in, np.ones((3, 3), np.uint8))
    edge_occ = ((edge > 0) & (zbuf_lab == L_HAND)).sum() / max(1, (edge > 0).sum())
    if cut_frac > 0.01 or occluded > 0.01 or edge_occ > 0.01:
        reasons.add(2)
    if "hair_model" in p:
        img = look06.light(p, img, cx, cy, zbuf_lab, [L_VAULT, L_LOWER, L_NOSE, L_CHEEK, L_EAR, L_HAIR, L_STICKER])
        warp = look06.distortion_maps(p, W, H)
        if warp is not None:
            mx, my, fwd = warp
            near = lambda a: cv2.remap(a, mx, my, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
            full_d = near(full_in)
            on_edge = lambda a: a[0].any() or a[-1].any() or a[:, 0].any() or a[:, -1].any()
            # a lens that pushes a whole head out of the frame would change the labels: keep it straight then
            if not on_edge(full_d) or on_edge(full_in):
                img = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
                head_mask, sticker_mask, full_in = near(head_mask), near(sticker_mask), full_d
                nose_uv = fwd(*nose_uv)
                cx, cy = fwd(cx, cy)
    # ---- camera effects
    img = np.clip(img, 0, 1)
    gain = rng.uniform(0.85, 1.15, 3) * rng.uniform(0.75, 1.25)
    img = np.clip(img * gain.astype(np.float32), 0, 1)
    vx = ((np.arange(W, dtype=np.float32) - cx) / W) ** 2
    vy = ((np.arange(H, dtype=np.float32) - cy) / H) ** 2
    vig = 1 - rng.uniform(0, 0.35) * (vx[None, :] + vy[:, None]) * 2
    img = img * vig[..., None]
    if p["blurry"]:
        if rng.random() < 0.5:
            sig = rng.uniform(0.016, 0.04) * head_diam
            img = cv2.GaussianBlur(img, (0, 0), sig)
        else:
            ln = rng.uniform(0.045, 0.12) * head_diam
            k = int(ln) | 1
            ker = np.zeros((k, k), np.float32)
            ker[k // 2, :] = 1
            Mr = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
            ker = cv2.warpAffine(ker, Mr, (k, k))
            ker /= ker.sum()
            img = cv2.filter2D(img, -1, ker)
            img = cv2.GaussianBlur(img, (0, 0), 0.004 * head_diam + 0.3)
    else:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 0.5) + rng.uniform(0, 0.003) * head_diam)
        if SOFTEN_GOOD > 0:  # its own generator: the scene is otherwise the same photo (ADR 0126)
            soften = np.random.default_rng([int(p["seed"]), 126])
            sigma = soften.uniform(0, SOFTEN_GOOD) * head_diam if soften.random() < 0.5 else 0.0
            if sigma > 0.05:
                img = cv2.GaussianBlur(img, (0, 0), sigma)
    noise = np.empty(img.shape, np.float32)
    cv2.randn(noise, 0, rng.uniform(0.003, 0.025))
    img8 = (np.clip(img + noise, 0, 1) * 255 + 0.5).astype(np.uint8)
    gam = rng.uniform(0.85, 1.15)
    img8 = cv2.LUT(img8, ((np.arange(256) / 255.0) ** gam * 255 + 0.5).astype(np.uint8))
    if "hair_model" in p:
        img8 = look06.tone_and_filters(p, img8)
    q = int(rng.uniform(45, 95))
    ok_, enc = cv2.imencode(".jpg", img8[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, q])
    img8 = cv2.imdecode(enc, cv2.IMREAD_COLOR)[..., ::-1].copy()
    img8 = look06.resize_chain(p, img8)
    ys_, xs_ = np.nonzero(full_in)
    bbox = (float(xs_.min()), float(ys_.min()), float(xs_.max() + 1), float(ys_.max() + 1)) if len(xs_) else (0, 0, W, H)
    sticker = None
    if sticker_mask.sum() > 0:
        ys_, xs_ = np.nonzero(sticker_mask)
        sticker = (float(xs_.mean() + 0.5), float(ys_.mean() + 0.5), math.sqrt(sticker_mask.sum() / math.pi))
    ci, cvai = truth_indices(s)
    return {
        "image": img8, "mask": head_mask, "sticker_mask": sticker_mask, "nose": nose_uv if nose_visible else None,
        "reasons": sorted(reasons), "bbox": bbox, "sticker": sticker, "ci": ci, "cvai": cvai,
        "head_diam": head_diam, "labels": zbuf_lab, "dbg": (cut_frac, occluded, edge_occ, nose_px),
    }


if __name__ == "__main__":
    import sys
    import time
    rng = np.random.default_rng(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    out = sys.argv[2] if len(sys.argv) > 2 else "/tmp/render_test"
    import os
    os.makedirs(out, exist_ok=True)
    for i in range(12):
        p = sample_scene(rng, reasons=[] if i < 4 else [(i - 4) % 8])
        t = time.time()
        r = render(p)
        dt = time.time() - t
        im = r["image"].copy()
        cnts, _ = cv2.findContours(r["mask"], cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        vis = im[..., ::-1].copy()
        cv2.drawContours(vis, cnts, -1, (0, 255, 0), 1)
        if r["nose"]:
            cv2.circle(vis, (int(r["nose"][0]), int(r["nose"][1])), 3, (0, 0, 255), -1)
        cv2.imwrite(f"{out}/{i:02d}.jpg", im[..., ::-1])
        cv2.imwrite(f"{out}/{i:02d}_vis.png", vis)
        print(i, p["want"], r["reasons"], im.shape, f"{dt:.2f}s", f"CI {r['ci']:.1f} CVAI {r['cvai']:.1f}", p["shape"]["kind"], p["cap"], p["hair_type"])
