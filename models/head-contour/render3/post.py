"""render3's phone: a Cycles render (linear light) turned into the JPEG a phone would send, with its truth.

Auto-exposure, white-balance error, vignetting, the blur of the photo (defocus or motion, sized in head
diameters: good photos at most 0.010, blurry ones 0.016-0.045; the product owner's thresholds, issue 45),
photon and read noise, tone curve, the phone's denoiser (which also removes the few-sample render's own
noise), sharpening, JPEG and sometimes a resize chain (messaging apps). /usr/bin/python3 with OpenCV.
"""
import math
import os

os.environ.setdefault("OPENCV_IO_ENABLE_OPENEXR", "1")
import cv2  # noqa: E402
import numpy as np  # noqa: E402

import truth as T  # noqa: E402

GOOD_BLUR = 0.010   # at most this (sigma / head diameter): a good photo
BLURRY = 0.016      # from this: "Image is blurry"
BASE_SOFTNESS = 0.5  # px: the render's own pixel filter, counted in a good photo's blur


def lin_to_srgb(x):
    x = np.clip(x, 0, 1)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)


def blur_kernel(rng, sigma_px, kind):
    """A defocus disc or a motion streak whose standard deviation is sigma_px."""
    if kind == "defocus":
        r = max(0.5, 2.0 * sigma_px)  # a uniform disc of radius r has sigma r / 2
        k = int(math.ceil(r)) * 2 + 3
        yy, xx = np.mgrid[:k, :k] - (k - 1) / 2
        ker = np.clip(r + 0.5 - np.hypot(xx, yy), 0, 1).astype(np.float32)
    else:
        ln = max(1.0, sigma_px * math.sqrt(12))  # a segment of length l has sigma l / sqrt(12)
        k = int(math.ceil(ln)) | 1
        k += 2
        ker = np.zeros((k, k), np.float32)
        c = (k - 1) / 2
        ang = rng.uniform(0, math.pi)
        for s in np.linspace(-ln / 2, ln / 2, 4 * k):
            x, y = c + s * math.cos(ang), c + s * math.sin(ang)
            x0, y0 = int(math.floor(x)), int(math.floor(y))
            fx, fy = x - x0, y - y0
            for dx, dy, w in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):
                if 0 <= x0 + dx < k and 0 <= y0 + dy < k:
                    ker[y0 + dy, x0 + dx] += w
    return ker / ker.sum()


def develop(beauty, head, diam, seed, blurry):
    """beauty: (H, W, 3) linear RGB; head: bool mask of the vault; diam: head diameter (px).
    Returns (8-bit RGB photo, blur sigma / diameter, what was done)."""
    rng = np.random.default_rng(seed)
    img = np.nan_to_num(beauty.astype(np.float32), nan=0.0, posinf=0.0)
    H, W = img.shape[:2]
    # auto-exposure: centre-weighted metering to mid grey, with the scene's bias
    yy, xx = np.mgrid[:H, :W]
    wgt = np.exp(-(((xx - W / 2) / (0.35 * W)) ** 2 + ((yy - H / 2) / (0.35 * H)) ** 2))
    lum = img @ np.array([0.2126, 0.7152, 0.0722], np.float32)
    meter = float((np.log(lum + 1e-4) * wgt).sum() / wgt.sum())
    ev = rng.uniform(-0.7, 0.5)
    img *= 0.18 * 2 ** ev / math.exp(meter)
    # white balance slightly off (mixed colour temperatures are in the scene itself)
    img *= (rng.uniform(0.9, 1.1, 3) * np.array([1, 1, 1])).astype(np.float32)
    # the render's own (few-sample) noise removed first, as a denoiser in the renderer would
    pre = (lin_to_srgb(img) * 255 + 0.5).astype(np.uint8)
    hr = 10.0
    pre = cv2.fastNlMeansDenoisingColored(pre, None, hr, hr, 5, 17).astype(np.float32) / 255.0
    img = np.where(pre <= 0.04045, pre / 12.92, ((pre + 0.055) / 1.055) ** 2.4).astype(np.float32)
    # vignetting
    r2 = ((xx - W / 2) / W) ** 2 + ((yy - H / 2) / H) ** 2
    img *= (1 - rng.uniform(0, 0.5) * r2)[..., None].astype(np.float32)
    # blur, in head diameters
    if blurry:
        k = rng.uniform(BLURRY, 0.045)
    else:
        k = rng.uniform(0, GOOD_BLUR) if rng.random() < 0.6 else 0.0
    base = BASE_SOFTNESS / max(diam, 1)
    extra = math.sqrt(max(0.0, k * k - base * base)) * diam
    kind = str(rng.choice(["defocus", "motion"])) if blurry else "defocus"
    if extra > 0.3:
        img = cv2.filter2D(img, -1, blur_kernel(rng, extra, kind), borderType=cv2.BORDER_REFLECT)
    total = math.sqrt(base * base + (extra / max(diam, 1)) ** 2)
    # sensor: photon noise grows with the signal, read noise does not; brighter scenes, lower ISO
    iso = rng.uniform(0.002, 0.02)
    noise = np.sqrt(np.clip(img, 0, None) * iso * 0.05 + (iso * 0.3) ** 2)
    img = img + rng.standard_normal(img.shape).astype(np.float32) * noise
    # tone curve: sRGB with an S-curve of the phone's taste
    out = lin_to_srgb(img)
    c = rng.uniform(0.0, 0.35)
    out = out + c * (out - 0.5) * (1 - np.abs(2 * out - 1))
    sat = rng.uniform(0.85, 1.15)
    grey = out.mean(-1, keepdims=True)
    out = np.clip(grey + (out - grey) * sat, 0, 1)
    img8 = (out * 255 + 0.5).astype(np.uint8)
    # the phone's denoiser, then sharpening
    h = rng.uniform(2, 6)
    img8 = cv2.fastNlMeansDenoisingColored(img8, None, h, h, 5, 15)
    amt = rng.uniform(0.0, 1.0)
    if amt > 0.05:
        soft = cv2.GaussianBlur(img8, (0, 0), rng.uniform(0.8, 1.6))
        img8 = cv2.addWeighted(img8, 1 + amt, soft, -amt, 0)
    q = int(rng.uniform(60, 96))
    ok, enc = cv2.imencode(".jpg", img8[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, q])
    img8 = cv2.imdecode(enc, cv2.IMREAD_COLOR)[..., ::-1]
    chain = rng.random() < 0.3
    if chain:
        s = rng.uniform(0.5, 0.85)
        small = cv2.resize(img8, (max(8, int(W * s)), max(8, int(H * s))), interpolation=cv2.INTER_AREA)
        ok, enc = cv2.imencode(".jpg", small[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, int(rng.uniform(55, 90))])
        small = cv2.imdecode(enc, cv2.IMREAD_COLOR)[..., ::-1]
        img8 = cv2.resize(small, (W, H), interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(img8), total, {"blur": total, "blur_kind": kind if extra > 0.3 else None, "jpeg": q,
                                               "resize_chain": bool(chain), "sharpen": amt, "denoise": h, "ev": ev}


def finish(d, seed):
    """Reads a cache dir written by blend.py; returns the photo and its truth (masks, nose, reasons)."""
    import json
    with open(os.path.join(d, "meta.json")) as f:
        meta = json.load(f)
    beauty = cv2.imread(os.path.join(d, "beauty.exr"), cv2.IMREAD_UNCHANGED)[..., ::-1]
    labels = T.decode_labels(cv2.imread(os.path.join(d, "labels.png"), cv2.IMREAD_UNCHANGED)[..., 2])
    full = cv2.imread(os.path.join(d, "full.png"), cv2.IMREAD_UNCHANGED)[..., 2] > 127
    diam = T.head_diameter(full)
    head = T.head_mask(labels, full)
    blurry = 0 in meta["params"]["want"]
    img8, blur, fx = develop(beauty, head, diam, seed, blurry)
    reasons = sorted(set(meta["reasons"]) | ({0} if blur >= BLURRY else set()))
    sticker = (labels == T.STICKER)
    nose = meta["nose_uv"] if meta["figures"]["nose_visible"] else None
    return img8, {
        "mask": head.astype(np.uint8), "sticker_mask": sticker.astype(np.uint8), "full": full.astype(np.uint8),
        "labels": labels, "nose": nose, "reasons": reasons, "blur": blur, "effects": fx, "meta": meta, "head_diam": diam,
    }
