"""Second renderer family: materials, per-pixel shading, backgrounds and what a phone does to a photo."""
import math

import cv2
import numpy as np

HEAD, NOSE, EAR, STICKER, BODY, HAND = 1, 2, 3, 4, 5, 6


def waves(rng, pts, scale_cm, octaves=3):
    """Smooth 3D noise in [-1, 1] as a sum of random plane waves (cheap, no lattice)."""
    out = np.zeros(pts.shape[:-1])
    amp, total = 1.0, 0.0
    for o in range(octaves):
        for _ in range(3):
            d = rng.normal(size=3)
            d /= np.linalg.norm(d)
            out += amp * np.sin(pts @ d * (2 ** o) * 2 * math.pi / scale_cm + rng.uniform(0, 2 * math.pi))
            total += amp
        amp *= 0.5
    return out / total * 1.7


def background(rng, h, w):
    kind = rng.choice(["planks", "quilt", "dots", "blotches", "fleece"])
    base = rng.uniform(0.1, 0.95, 3)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    a = rng.uniform(0, math.pi)
    u, v = xx * math.cos(a) + yy * math.sin(a), -xx * math.sin(a) + yy * math.cos(a)
    if kind == "planks":
        width = rng.uniform(40, 120)
        k = np.floor(v / width)
        tone = 0.75 + 0.25 * np.sin(k * 12.9898) ** 2
        grain = 0.08 * np.sin(u / rng.uniform(3, 9) + 3 * np.sin(v / 23 + k))
        img = base[None, None] * (tone + grain)[..., None]
        img[(v % width) < 2] *= 0.5
    elif kind == "quilt":
        size = rng.uniform(30, 90)
        cells = (np.floor(u / size) * 7 + np.floor(v / size) * 13).astype(int) % 5
        palette = rng.uniform(0.2, 0.98, (5, 3))
        img = palette[cells]
        img[((u % size) < 2) | ((v % size) < 2)] *= 0.6
    elif kind == "dots":
        img = np.broadcast_to(base, (h, w, 3)).copy()
        for _ in range(int(rng.integers(40, 160))):
            cv2.circle(img, (int(rng.integers(w)), int(rng.integers(h))), int(rng.integers(3, 16)), rng.uniform(0, 1, 3).tolist(), -1)
    elif kind == "blotches":
        small = rng.uniform(0, 1, (int(rng.integers(3, 8)), int(rng.integers(3, 8))))
        m = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)
        other = rng.uniform(0.1, 0.95, 3)
        img = base * m[..., None] + other * (1 - m[..., None])
        for _ in range(int(rng.integers(0, 4))):  # toys and clutter
            cv2.ellipse(img, (int(rng.integers(w)), int(rng.integers(h))), (int(rng.integers(10, 60)), int(rng.integers(10, 40))),
                        float(rng.uniform(0, 180)), 0, 360, rng.uniform(0, 1, 3).tolist(), -1)
    else:
        img = base[None, None] * (0.9 + 0.1 * rng.normal(size=(h, w, 1)))
    return np.clip(img, 0, 1)


def head_albedo(p, rng, hf, skin):
    """Colour of the head's surface at head-frame points hf: cap or hair above, skin and face below."""
    x, y, z = hf[..., 0], hf[..., 1], hf[..., 2]
    t = np.arctan2(x, y)
    back = (1 - np.cos(t)) / 2
    col = np.broadcast_to(skin, hf.shape).copy()
    eyes = (np.abs(np.abs(t) - 0.5) < 0.12) & (np.abs(z + 3.8) < 0.35)
    col[eyes] *= 0.25
    col[(np.abs(t) < 0.25) & (np.abs(z + 7.2) < 0.3)] *= [0.8, 0.45, 0.45]  # mouth
    hair = hair_albedo(p, rng, hf)
    hairline = -1.0 - 4.0 * back
    if p["cap"]:
        brim = -0.8 - 2.4 * back + 0.3 * np.sin(3 * t + p["seed"] % 7)
        col = np.where((z >= hairline)[..., None], hair, col)
        cap = cap_albedo(p, rng, hf, t, z)
        band = (z >= brim) & (z < brim + 0.9)
        cap[band] *= 0.82 + 0.1 * np.sin(z[band] * 20)[..., None]
        return np.where((z >= brim)[..., None], cap, col)
    return np.where((z >= hairline + 0.2 * waves(rng, hf, 2.0, 1))[..., None], hair, col)


def cap_albedo(p, rng, hf, t, z):
    c = np.broadcast_to(p["cap_colour"], hf.shape).copy()
    kind = p["cap_pattern"]
    if kind == "ribs":
        c *= (0.88 + 0.12 * np.sin(t * 70))[..., None]
    elif kind == "stripes":
        c = np.where((np.sin(z * 2.2) > 0)[..., None], c, 1 - 0.7 * c)
    elif kind == "dots":
        c = np.where(((np.sin(hf[..., 0] * 3) * np.sin(hf[..., 1] * 3)) > 0.8)[..., None], 1 - c, c)
    elif kind == "tie-dye":
        c = np.where((waves(rng, hf, 4.0, 2) > 0.3)[..., None], c[..., ::-1], c)
    return c * (0.95 + 0.05 * waves(rng, hf, 0.4, 2))[..., None]


def hair_albedo(p, rng, hf):
    hc, model = p["hair_colour"], p["hair"]
    x, y = hf[..., 0], hf[..., 1] + 1.2  # the whorl sits behind the vertex
    phi, r = np.arctan2(x, y), np.hypot(x, y)
    if model == "bald":
        return np.broadcast_to(p["skin"] * 0.88 + hc * 0.12, hf.shape).copy()
    if model == "curly":
        v = np.sin(hf[..., 0] * 9 + 2 * waves(rng, hf, 1.5, 2)) * np.sin(hf[..., 1] * 9 + hf[..., 2] * 4)
        return hc * (0.8 + 0.35 * v)[..., None]
    strands = np.sin(phi * (160 if model == "fine" else 90) + 3 * np.sin(r * 1.3) + 2 * waves(rng, hf, 3.0, 2))
    col = hc * (0.85 + (0.12 if model == "fine" else 0.3) * strands)[..., None]
    if model == "sparse":
        scalp = (waves(rng, hf, 1.2, 2) > -0.1)[..., None]
        col = np.where(scalp, p["skin"] * 0.92, col)
    return col


def shade(p, rng, lab, nrm, col, uv, hf, pos, cam, bg, has_sticker):
    """Per-pixel Lambert + Blinn-Phong with a coloured key light, a sky-like ambient and maybe a flash."""
    alb = col.copy()
    head = lab == HEAD
    alb[head] = head_albedo(p, rng, hf[head], p["skin"])
    st = lab == STICKER
    if has_sticker and p["sticker_ring"]:
        ring = st & (uv[..., 0] > 0.72) & (uv[..., 0] < 0.86)
        alb[ring] = 1 - alb[ring]
    body = lab == BODY
    alb[body] *= (0.8 + 0.2 * (np.sin(pos[body][:, 0] * rng.uniform(1, 4)) > 0))[:, None]
    el, az = math.radians(rng.uniform(35, 80)), rng.uniform(0, 2 * math.pi)
    L = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    key = np.array([1.0, 1.0, 1.0]) + rng.uniform(-0.15, 0.15, 3)
    amb = rng.uniform(0.25, 0.5)
    V = cam.centre - pos
    V /= np.maximum(np.linalg.norm(V, axis=-1, keepdims=True), 1e-9)
    diff = np.clip(nrm @ L, 0, None)
    hemi = 0.6 + 0.4 * nrm[..., 2]
    Hh = L + V
    Hh /= np.maximum(np.linalg.norm(Hh, axis=-1, keepdims=True), 1e-9)
    shin = np.full(lab.shape, 12.0)
    ks = np.full(lab.shape, 0.06)
    if not p["cap"] and p["hair"] in ("fine", "thick", "curly"):
        shin[head], ks[head] = 30, rng.uniform(0.05, 0.3)  # wet hair shines
    shin[st], ks[st] = 60, (0.9 if p["sticker_glare"] else 0.1)
    spec = ks * np.clip((nrm * Hh).sum(-1), 0, None) ** shin
    light = (amb * hemi)[..., None] + diff[..., None] * key * (1 - amb)
    if rng.random() < 0.25:  # flash: a light at the camera, hard highlights
        flash = np.clip((nrm * V).sum(-1), 0, None)
        light = light * 0.6 + 0.6 * flash[..., None]
        spec = spec + ks * flash ** (shin * 2)
    img = alb * light + spec[..., None] * key
    fg = lab >= 0
    # soft cast shadow of head and hands on what lies below them
    casters = np.isin(lab, (HEAD, NOSE, EAR, HAND)).astype(np.float32)
    size = float(np.sqrt(casters.sum() + 1))
    m = np.float32([[1, 0, -L[0] * 0.25 * size], [0, 1, L[1] * 0.25 * size]])
    sh = cv2.GaussianBlur(cv2.warpAffine(casters, m, (lab.shape[1], lab.shape[0])), (0, 0), 0.05 * size + 1)
    bgl = bg * (amb + (1 - amb) * math.sin(el)) * key * (1 - 0.5 * sh[..., None])
    img = np.where(fg[..., None], img, bgl)
    img[body] *= (1 - 0.5 * sh[body])[:, None]
    return np.clip(img, 0, 1), {"elevation": math.degrees(el)}


def strokes(img, rng, mask, colour, n, length, width, alpha):
    """Strands from the mask's edge outwards (fuzz, or tufts of hair breaking the outline)."""
    cs, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not cs:
        return img
    c = max(cs, key=len)[:, 0, :].astype(np.float64)
    centre = c.mean(0)
    layer = img.copy()
    for i in rng.integers(0, len(c), n):
        p0 = c[i]
        d = p0 - centre
        d /= np.linalg.norm(d) + 1e-9
        bend = rng.normal(0, 0.5)
        pts = [p0]
        ln = length * rng.uniform(0.6, 1.0)
        for k in range(1, 6):
            a = bend * k / 5
            dd = np.array([d[0] * math.cos(a) - d[1] * math.sin(a), d[0] * math.sin(a) + d[1] * math.cos(a)])
            pts.append(pts[-1] + dd * ln / 5)
        cv2.polylines(layer, [np.round(np.array(pts)).astype(np.int32)], False, colour.tolist(), max(1, int(width)), cv2.LINE_AA)
    return img * (1 - alpha) + layer * alpha


def finish_photo(p, rng, img, lab, head_px):
    head = lab == HEAD
    px_per_cm = head_px / (2 * p["head"]["half_l"])
    hc = np.clip(p["hair_colour"], 0, 1)
    if p["fuzz"]:
        img = strokes(img, rng, head, hc, 250, 0.25 * px_per_cm, 1, 0.5)
    if p["tufts"]:
        img = strokes(img, rng, head, hc * 0.9, int(rng.integers(4, 11)), rng.uniform(1.5, 4) * px_per_cm, max(1, px_per_cm * 0.12), 0.95)
    if p["blur"]:
        if rng.random() < 0.5:
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.018, 0.045) * head_px)
        else:
            n = max(3, int(rng.uniform(0.05, 0.12) * head_px))
            k = np.zeros((n, n), np.float32)
            k[n // 2] = 1
            k = cv2.warpAffine(k, cv2.getRotationMatrix2D((n / 2, n / 2), float(rng.uniform(0, 180)), 1), (n, n))
            img = cv2.filter2D(img, -1, k / k.sum())
    elif rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), 0.3 + rng.uniform(0, 0.003) * head_px)
    h, w = lab.shape
    img = img * rng.uniform(0.85, 1.15, 3) * rng.uniform(0.75, 1.2)  # white balance, exposure
    img = np.clip(img, 0, 1) ** rng.uniform(0.8, 1.25)
    s = rng.uniform(0, 0.3)  # S-shaped tone curve
    img = img + s * img * (1 - img) * (2 * img - 1)
    img = img + rng.normal(0, rng.uniform(0.004, 0.025), img.shape) * np.sqrt(np.clip(img, 0.01, 1))
    if rng.random() < 0.5:  # denoise, then sharpen
        soft = cv2.GaussianBlur(img, (0, 0), 0.9)
        img = soft + rng.uniform(0.4, 1.2) * (soft - cv2.GaussianBlur(soft, (0, 0), 2.0))
    if rng.random() < 0.4:  # barrel or pincushion distortion
        k1 = rng.uniform(-0.12, 0.05)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        nx, ny = (xx - w / 2) / (max(w, h) / 2), (yy - h / 2) / (max(w, h) / 2)
        f = 1 + k1 * (nx * nx + ny * ny)
        img = cv2.remap(img.astype(np.float32), w / 2 + nx * f * max(w, h) / 2, h / 2 + ny * f * max(w, h) / 2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    yy, xx = np.mgrid[0:h, 0:w]
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    img = img * (1 - rng.uniform(0, 0.35) * r2)[..., None]
    out = (np.clip(img, 0, 1) * 255).astype(np.uint8)
    if rng.random() < 0.5:  # a resize chain: shared, downscaled, upscaled again
        k = rng.uniform(0.5, 0.9)
        out = cv2.resize(cv2.resize(out, (int(w * k), int(h * k)), interpolation=cv2.INTER_AREA), (w, h), interpolation=cv2.INTER_LINEAR)
    ok, buf = cv2.imencode(".jpg", out[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1]
