"""What render.py's 0.6 scenes add (CROWN_SCENES=0.6, issue 18 item 1): hair models, varied noses,
partly covered stickers, cluttered backgrounds and the effects a phone camera adds.

Every random draw here comes from its own generator (seeded from the scene's seed), so the 0.5 scenes,
which never call these functions, stay byte for byte what they were. Written for render.py's point
clouds; render2/ (the measuring family) is separate and must stay so (docs/adr/0040).
"""
import math

import cv2
import numpy as np

HAIR_MODELS = ["wet", "dry", "thick", "none", "fine", "sparse", "curly"]


def fx_rng(p, salt):
    return np.random.default_rng([int(p["seed"]), 6, salt])


def sample(rng, cap):
    """The 0.6 parameters beyond render.py's own (drawn after all of them)."""
    q = {}
    q["hair_model"] = str(rng.choice(HAIR_MODELS, p=[0.16, 0.14, 0.12, 0.12, 0.16, 0.14, 0.16]))
    q["fuzzy_edge"] = bool(rng.random() < (0.15 if cap else 0.45))
    q["nose_axes"] = rng.uniform([0.5, 0.5, 0.4], [1.05, 1.1, 0.85])
    q["nose_tint"] = rng.uniform([0.95, 0.85, 0.82], [1.12, 1.02, 1.0])
    q["sticker_cover"] = float(rng.uniform(0.15, 0.45)) if rng.random() < 0.2 else 0.0
    q["clutter"] = int(rng.integers(0, 9)) if rng.random() < 0.6 else 0
    q["flash"] = bool(rng.random() < 0.25)
    q["mixed_light"] = bool(rng.random() < 0.4)
    q["tone"] = str(rng.choice(["none", "s", "lift", "hdr"], p=[0.3, 0.3, 0.2, 0.2]))
    q["denoise"] = bool(rng.random() < 0.35)
    q["sharpen"] = float(rng.uniform(0.3, 1.4)) if rng.random() < 0.5 else 0.0
    q["distortion"] = float(rng.uniform(-0.06, 0.04)) if rng.random() < 0.5 else 0.0
    q["resize_chain"] = bool(rng.random() < 0.4)
    return q


# ----------------------------------------------------------------------------- hair on the vault

def _wave(Pn, r, k_lo, k_hi, n):
    """A sum of n random plane waves over the unit directions Pn (smooth pseudo-noise in [-1, 1])."""
    out = np.zeros(Pn.shape[:-1], np.float32)
    for _ in range(n):
        d = r.normal(size=3)
        d /= np.linalg.norm(d)
        out += np.sin((Pn @ d) * r.uniform(k_lo, k_hi) + r.uniform(0, 6.3)).astype(np.float32)
    return out / math.sqrt(n)


def hair_colour(p, Pn, tex, hairline, col, skin):
    """Colour of the vault's points for the hair models render.py did not have; None for its own."""
    model = p.get("hair_model")
    if model not in ("fine", "sparse", "curly"):
        return None
    r = fx_rng(p, 1)
    hc = p["hair_color"]
    t = tex[..., 0]
    if model == "fine":  # thin light strands, skin through them everywhere
        dens = 0.45 + 0.2 * _wave(Pn, r, 3, 8, 4)[..., None]
        hair = hc * (0.7 + 0.5 * t[..., None])
    elif model == "sparse":  # patches of scalp showing
        dens = np.clip(0.35 + 0.45 * _wave(Pn, r, 4, 10, 5), 0.05, 0.85)[..., None]
        hair = hc * (0.5 + 0.7 * t[..., None])
    else:  # curly: small rings instead of radiating strands
        curl = np.sin(_wave(Pn, r, 25, 45, 6) * 9)
        dens = np.full(t.shape + (1,), 0.92, np.float32)
        hair = hc * (0.55 + 0.35 * curl[..., None] + 0.15 * t[..., None])
    mixed = dens * hair + (1 - dens) * skin
    return np.where(hairline[..., None], mixed, col)


def hair_edge(p, s, radius, capsule, ellipsoid, add, hz, den, label):
    """Hair past the vault's outline that is *not* an artifact: a fuzzy edge (many short fine hairs)
    and, for curly hair, small tufts along it. Both stay under 0.7 cm (artifacts are 1.5-4 cm)."""
    if p["cap"]:
        if not p.get("fuzzy_edge"):
            return
    r = fx_rng(p, 2)
    hc = p["hair_color"]
    if p.get("fuzzy_edge"):
        for _ in range(int(r.integers(60, 180))):
            a = r.uniform(0, 2 * math.pi)
            r0 = radius(s, np.array([a]))[0]
            be = r.uniform(-0.15, 0.5)
            start = np.array([r0 * math.cos(be) * math.sin(a), r0 * math.cos(be) * math.cos(a), hz * math.sin(be)])
            d = np.array([math.sin(a), math.cos(a), r.uniform(-0.2, 0.8)])
            d /= np.linalg.norm(d)
            ln = r.uniform(0.15, 0.65)
            P, N = capsule(start, start + d * ln, r.uniform(0.02, 0.05), max(4, int(ln * den * 2)), 4)
            c = (p["cap_color"] * 0.9 if p["cap"] else hc) * r.uniform(0.6, 1.1)
            add(P, N, c, label, 0.1)
    if p.get("hair_model") == "curly" and not p["cap"]:
        for _ in range(int(r.integers(30, 70))):
            a = r.uniform(0, 2 * math.pi)
            r0 = radius(s, np.array([a]))[0]
            be = r.uniform(0.0, 0.9)
            c = np.array([r0 * math.cos(be) * math.sin(a), r0 * math.cos(be) * math.cos(a), hz * math.sin(be)])
            k = max(6, int(den * 2.5))
            P, N = ellipsoid(c, np.full(3, r.uniform(0.25, 0.45)), k, k)
            add(P, N, hc * r.uniform(0.5, 0.9), label, 0.15)


def nose_axes(p, default):
    return np.asarray(p.get("nose_axes", default), float)


def sticker_keep(p, rr2, th):
    """Which sticker points stay visible: a partly covered sticker loses a segment beyond a chord."""
    cover = p.get("sticker_cover", 0.0)
    if not cover:
        return np.ones(rr2.size, bool)
    r = fx_rng(p, 3)
    a = r.uniform(0, 2 * math.pi)
    rs = rr2.max()
    x = (rr2 * np.cos(th - a)).reshape(-1)
    return x < rs * (1 - 2 * cover)


# ----------------------------------------------------------------------------- background clutter

def clutter(p, img):
    """Objects beside the baby: toys, a muslin cloth, a phone, printed fabric patches, a dummy. Drawn on
    the background, so they are never head (some are skin- or cap-coloured and round on purpose)."""
    n = p.get("clutter", 0)
    if not n:
        return img
    r = fx_rng(p, 4)
    H, W = img.shape[:2]
    img = img.copy()
    for _ in range(n):
        kind = r.choice(["blob", "rect", "ring", "stripes", "spots"])
        cx, cy = r.uniform(0, W), r.uniform(0, H)
        sz = r.uniform(0.05, 0.3) * min(H, W)
        colr = r.uniform(0.05, 1.0, 3).astype(np.float32)
        if r.random() < 0.2:
            colr = (p["skin"] * r.uniform(0.85, 1.1)).astype(np.float32)
        m = np.zeros((H, W), np.uint8)
        ang = r.uniform(0, 180)
        if kind == "blob":
            cv2.ellipse(m, (int(cx), int(cy)), (int(sz), int(sz * r.uniform(0.4, 1))), ang, 0, 360, 1, -1)
        elif kind == "rect":
            box = cv2.boxPoints(((cx, cy), (sz * 2, sz * r.uniform(0.3, 1.2)), ang)).astype(np.int32)
            cv2.fillPoly(m, [box], 1)
        elif kind == "ring":
            cv2.ellipse(m, (int(cx), int(cy)), (int(sz), int(sz)), 0, 0, 360, 1, max(2, int(sz * 0.25)))
        else:
            box = cv2.boxPoints(((cx, cy), (sz * 3, sz * 2), ang)).astype(np.int32)
            cv2.fillPoly(m, [box], 1)
        mf = m.astype(np.float32)
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        shade = 0.8 + 0.2 * np.cos((xx - cx) / max(sz, 1) * 1.5) * np.cos((yy - cy) / max(sz, 1) * 1.5)
        layer = colr[None, None] * shade[..., None]
        if kind == "stripes":
            per = r.uniform(4, 20)
            st = (np.sin((xx * math.cos(ang) + yy * math.sin(ang)) / per * 2 * math.pi) > 0)[..., None]
            layer = np.where(st, layer, r.uniform(0.1, 1.0, 3).astype(np.float32)[None, None])
        elif kind == "spots":
            per = r.uniform(8, 24)
            st = (np.hypot((xx % per) - per / 2, (yy % per) - per / 2) < per * r.uniform(0.15, 0.35))[..., None]
            layer = np.where(st, r.uniform(0.1, 1.0, 3).astype(np.float32)[None, None], layer)
        # a soft contact shadow around the object
        sh = cv2.GaussianBlur(mf, (0, 0), max(1.0, sz * 0.08))
        img = img * (1 - 0.3 * np.clip(sh - mf, 0, 1))[..., None]
        img = np.where(mf[..., None] > 0, layer, img)
    return np.clip(img, 0, 1).astype(np.float32)


# ----------------------------------------------------------------------------- light and camera

def light(p, img, cx, cy, labels, skin_labels):
    """Flash (a bright centre falling off, highlights on skin and hair) and a second light of another
    colour across the scene (window daylight against a warm lamp)."""
    r = fx_rng(p, 5)
    H, W = img.shape[:2]
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    if p.get("flash"):
        d2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / (0.5 * max(H, W)) ** 2
        fall = 1 / (1 + r.uniform(0.6, 2.0) * d2)
        img = img * (r.uniform(0.6, 0.8) + r.uniform(0.35, 0.6) * fall)[..., None]
        hot = np.isin(labels, skin_labels) & (r.random((H, W)) < 1.0)
        glint = cv2.GaussianBlur((hot * fall > 0.85).astype(np.float32), (0, 0), 1.5) * r.uniform(0.1, 0.35)
        img = img + glint[..., None]
    if p.get("mixed_light"):
        ang = r.uniform(0, 2 * math.pi)
        t = ((xx - W / 2) * math.cos(ang) + (yy - H / 2) * math.sin(ang)) / max(H, W) + 0.5
        warm = np.array([1.12, 1.0, 0.78], np.float32) * r.uniform(0.9, 1.05)
        cool = np.array([0.85, 0.97, 1.15], np.float32) * r.uniform(0.9, 1.05)
        tint = warm[None, None] * np.clip(t, 0, 1)[..., None] + cool[None, None] * (1 - np.clip(t, 0, 1))[..., None]
        img = img * tint
    return np.clip(img, 0, 1).astype(np.float32)


def tone_and_filters(p, img8):
    """After the sensor: a tone curve, denoising, sharpening (uint8 RGB in, uint8 RGB out)."""
    r = fx_rng(p, 6)
    x = np.arange(256) / 255.0
    tone = p.get("tone", "none")
    if tone == "s":
        k = r.uniform(3, 7)
        y = 1 / (1 + np.exp(-k * (x - 0.5)))
        y = (y - y[0]) / (y[-1] - y[0])
        img8 = cv2.LUT(img8, (y * 255 + 0.5).astype(np.uint8))
    elif tone == "lift":
        lo, hi = r.uniform(0.03, 0.12), r.uniform(0.85, 1.0)
        img8 = cv2.LUT(img8, ((lo + (hi - lo) * x ** r.uniform(0.8, 1.0)) * 255 + 0.5).astype(np.uint8))
    elif tone == "hdr":  # local tone mapping: shadows lifted, highlights pulled, by a blurred luminance
        f = img8.astype(np.float32) / 255
        lum = cv2.GaussianBlur(f.mean(2), (0, 0), max(img8.shape[:2]) * 0.05)
        gain = (0.5 / np.clip(lum, 0.05, 1)) ** r.uniform(0.2, 0.45)
        img8 = (np.clip(f * gain[..., None], 0, 1) * 255 + 0.5).astype(np.uint8)
    if p.get("denoise"):
        img8 = cv2.bilateralFilter(img8, 5, r.uniform(15, 40), r.uniform(2, 5))
    if p.get("sharpen"):
        f = img8.astype(np.float32)
        bl = cv2.GaussianBlur(f, (0, 0), r.uniform(0.8, 2.0))
        img8 = np.clip(f + p["sharpen"] * (f - bl), 0, 255).astype(np.uint8)
    return img8


def distortion_maps(p, W, H):
    """Barrel (k < 0) or pincushion (k > 0) distortion, radius in half-diagonals: for each output pixel
    the source pixel (for cv2.remap) and a function taking an undistorted point to where it lands."""
    k = p.get("distortion", 0.0)
    if not k:
        return None
    cx, cy, rn = W / 2, H / 2, math.hypot(W, H) / 2
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    dx, dy = (xx + 0.5 - cx) / rn, (yy + 0.5 - cy) / rn
    g = 1 + k * (dx * dx + dy * dy)
    mx = (cx + dx * g * rn - 0.5).astype(np.float32)
    my = (cy + dy * g * rn - 0.5).astype(np.float32)

    def forward(u, v):
        sx, sy = (u - cx) / rn, (v - cy) / rn
        tx, ty = sx, sy
        for _ in range(8):  # solve t * (1 + k |t|^2) = s
            g_ = 1 + k * (tx * tx + ty * ty)
            tx, ty = sx / g_, sy / g_
        return cx + tx * rn, cy + ty * rn

    return mx, my, forward


def resize_chain(p, img8):
    """Downscaled and upscaled again (messaging apps, gallery previews) with a second JPEG pass."""
    if not p.get("resize_chain"):
        return img8
    r = fx_rng(p, 7)
    H, W = img8.shape[:2]
    s = r.uniform(0.45, 0.85)
    small = cv2.resize(img8, (max(8, int(W * s)), max(8, int(H * s))), interpolation=int(r.choice([cv2.INTER_AREA, cv2.INTER_LINEAR, cv2.INTER_CUBIC])))
    ok, enc = cv2.imencode(".jpg", small[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, int(r.uniform(55, 90))])
    small = cv2.imdecode(enc, cv2.IMREAD_COLOR)[..., ::-1]
    return cv2.resize(small, (W, H), interpolation=int(r.choice([cv2.INTER_LINEAR, cv2.INTER_CUBIC]))).copy()


# ----------------------------------------------------------------------------- 0.6e: the head's edge

# CROWN_SCENES=0.6e (models/head-contour/lab/0097): the 0.6 scenes plus, in a share of them, the two things that make
# the maps fail on photos of another renderer: a nose that shows only as a sliver at the head's edge,
# and cloth or sparse, fine hair right against the vault. Drawn from their own generator after every
# 0.6 parameter, so a 0.6e scene is its 0.6 scene with these changes and nothing else moves.
EDGE_SLIVER = 0.5   # share of eligible scenes whose nose barely passes the vault's outline
EDGE_CLOTH = 0.5    # share of scenes with cloth (a hood, a blanket's rim) against the vault's outline
EDGE_THIN_HAIR = 0.6  # share of hair heads whose hair model is redrawn as fine or sparse


def sample_edge(p, cap, reasons, sliver_share=EDGE_SLIVER, mark=False):
    """The 0.6e changes to a sampled 0.6 scene (a dict to update it with). 0.6v passes its own sliver
    share and mark=True (the sliver is flagged so render_sampled can keep it visible); 0.6e's defaults
    leave its scenes as they were."""
    r = fx_rng(p, 8)
    q = {}
    # A sliver of nose: small and hardly protruding, sometimes with the chin a little down. Only where
    # the scene does not already decide about the nose (no nose, face, back view). Whether it still
    # counts as visible is render()'s rule, unchanged (enough pixels near the true tip), so the label
    # and the heatmap target (the true tip, wherever the pixels are) follow from what is drawn.
    if not ({1, 4, 7} & set(reasons)) and r.random() < sliver_share:
        if mark:
            q["sliver"] = True
        shape = dict(p["shape"])
        shape["nose_prot"] = float(r.uniform(1.0, 1.6))  # 0.5 scenes: 1.3-2.2 cm
        q["shape"] = shape
        q["nose_axes"] = np.asarray(p.get("nose_axes", [0.75, 0.75, 0.6])) * r.uniform(0.65, 1.0)
        if r.random() < 0.3:
            q["pitch"] = p["pitch"] - math.radians(r.uniform(0, 2))
    if r.random() < EDGE_CLOTH:
        hc, sk = np.asarray(p["hair_color"]), np.asarray(p["skin"])
        k = r.random()
        # the colour of what it lies against, so only the shape of the skull tells them apart
        base = (np.asarray(p["cap_color"]) if cap else hc) if k < 0.45 else (sk if k < 0.7 else r.uniform(0.1, 0.95, 3))
        q["edge_cloth"] = {
            "at": float(math.pi + r.uniform(-1.2, 1.2)) if r.random() < 0.75 else float(r.uniform(0, 2 * math.pi)),
            "span": float(r.uniform(0.6, 2.2)),
            "tube": float(r.uniform(0.5, 1.6)),
            "gap": float(r.uniform(0.02, 0.35)),
            "drop": float(r.uniform(0.2, 2.5)),
            "colour": np.clip(base * r.uniform(0.8, 1.2, 3), 0, 1),
            "knit": float(r.uniform(4, 14)) if r.random() < 0.6 else 0.0,
        }
    if not cap and r.random() < EDGE_THIN_HAIR:
        q["hair_model"] = str(r.choice(["fine", "sparse"]))
        q["hair_type"] = "dry"
        q["fuzzy_edge"] = bool(r.random() < 0.5)
    return q


def edge_cloth(p, s, radius, add, den, label):
    """A roll of cloth (a hood, a blanket's rim, a collar) hugging part of the vault's outline just below
    the equator: a tube around the head whose inner side nearly touches the vault. It lies lower than
    the vault's outline, so it never covers it: the vault mask stays the truth."""
    e = p.get("edge_cloth")
    if not e:
        return
    tube, gap = e["tube"], e["gap"]
    n_al = max(24, int(e["span"] * 2 * 9 * den))
    n_ar = max(10, int(2 * math.pi * tube * den * 1.5))
    al = np.linspace(e["at"] - e["span"], e["at"] + e["span"], n_al)
    th = np.linspace(0, 2 * math.pi, n_ar, endpoint=False)
    A, T = np.meshgrid(al, th, indexing="xy")
    rc = radius(s, al)[None, :] + gap + tube
    # the ends taper, so the roll does not end in a flat cut
    taper = np.clip(1.2 * (1 - np.abs(A - e["at"]) / e["span"]) + 0.25, 0.25, 1.0)
    tr = tube * taper
    zc = -(e["drop"] + tube)
    radial = rc - tube + tr + tr * np.cos(T)
    P = np.stack([radial * np.sin(A), radial * np.cos(A), zc + tr * np.sin(T)], -1).reshape(-1, 3)
    N = np.stack([np.cos(T) * np.sin(A), np.cos(T) * np.cos(A), np.sin(T)], -1).reshape(-1, 3)
    c = np.broadcast_to(e["colour"], P.shape).astype(np.float32).copy()
    if e["knit"]:
        c *= (0.85 + 0.15 * np.sin(A * e["knit"] * 6 + np.sin(T * 3)).reshape(-1, 1)).astype(np.float32)
    add(P, N, c, label, 0.05)


# ----------------------------------------------------------------------------- 0.6v: slivers kept visible

# CROWN_SCENES=0.6v (models/head-contour/lab/0101): 0.6e's scenes with two changes. (1) More sliver noses, and a sliver
# that render()'s rule would call "not visible" is pushed out a step at a time until it shows (0.6e lost
# the nose in a third of its sliver draws and so taught "no nose" as often as "sliver"); render.py's
# other "no nose" scenes (chin down, reasons) are untouched. (2) Thin hair against surroundings of the
# hair's own colour, so where the hair is sparse at the outline only the scalp's shading and the
# skull's shape tell head from background (ADR 94: outlines bitten where the hair is sparse).
EDGE_SLIVER_V = 0.7       # share of eligible 0.6v scenes drawn with a sliver nose (0.6e: 0.5)
SLIVER_STEPS = 4          # at most this many pushes of 0.15 cm (and 5 % in size) to make a sliver show
SURROUND_HAIR = 0.5       # share of thin-hair heads whose surroundings take the hair's colour


def sample_surround(p, cap):
    """0.6v: whether the surroundings take the thin hair's colour, and how much (own generator)."""
    r = fx_rng(p, 9)
    if cap or p.get("hair_model") not in ("fine", "sparse") or r.random() >= SURROUND_HAIR:
        return {}
    return {"surround_hair": float(r.uniform(0.55, 0.9)), "surround_tint": r.uniform(0.75, 1.2, 3)}


def surround(p, img):
    """Blend the background (and clutter) towards the hair's colour, keeping its texture."""
    k = p.get("surround_hair")
    if not k:
        return img
    lum = img.mean(-1, keepdims=True)
    tex = np.clip(lum / max(float(lum.mean()), 1e-3), 0.6, 1.4)
    tone = np.clip(np.asarray(p["hair_color"]) * p["surround_tint"], 0, 1).astype(np.float32)
    return ((1 - k) * img + k * tone[None, None] * tex).astype(img.dtype)


def push_sliver(p):
    """One step out for a sliver nose that does not show: 0.15 cm more protrusion, 5 % larger."""
    shape = dict(p["shape"])
    shape["nose_prot"] = float(shape["nose_prot"]) + 0.15
    p["shape"] = shape
    p["nose_axes"] = np.asarray(p["nose_axes"]) * 1.05
