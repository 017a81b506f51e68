"""Copies of a rendered set with one change to every photo, to see what the shipped pipeline is
sensitive to (models/head-contour/lab/0125; a probe: nothing is trained on these copies).

    /usr/bin/python3 photo_variants.py global SRC OUT        blur1 blur2 half gray noise sharp lowc highc double
    /usr/bin/python3 photo_variants.py blur SRC OUT K,K,...  a Gaussian of sigma = K x the head's diameter (truth)

SRC holds truth.json and the photos (data.py eval or render2/build_set.py); each variant is a folder
OUT/NAME with the changed photos and the same truth (scaled for `double`), ready for
`pnpm tsx tests/bench/generalisation.bench.ts OUT/NAME --rows ROWS` from the repository root.
"""
import json
import os
import sys

import cv2
import numpy as np


def head_diameter(item):
    """data.py's truth names it head_diam; render2's head_px (the widest section's projected extent)."""
    return item.get("head_diam") or item["head_px"]


def _sharpen(im):
    soft = cv2.GaussianBlur(im, (0, 0), 1.5)
    return np.clip(1.8 * im.astype(np.float32) - 0.8 * soft, 0, 255).astype(np.uint8)


def _half(im):
    h, w = im.shape[:2]
    small = cv2.resize(im, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _contrast(gain):
    return lambda im: np.clip(128 + gain * (im.astype(np.float32) - 128), 0, 255).astype(np.uint8)


NOISE = np.random.default_rng(0)  # one stream across the set's photos, so a copy is the same each time


def _noise(im):
    return np.clip(im.astype(np.float32) + NOISE.normal(0, 8, im.shape), 0, 255).astype(np.uint8)


GLOBAL = {
    "blur1": lambda im: cv2.GaussianBlur(im, (0, 0), 1.0),
    "blur2": lambda im: cv2.GaussianBlur(im, (0, 0), 2.0),
    "half": _half,  # half the resolution and back, as a messaging app's preview does
    "gray": lambda im: cv2.cvtColor(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR),
    "noise": _noise,
    "sharp": _sharpen,
    "lowc": _contrast(0.6),
    "highc": _contrast(1.4),
    "double": lambda im: cv2.resize(im, (im.shape[1] * 2, im.shape[0] * 2), interpolation=cv2.INTER_CUBIC),
}


def write_variant(src, out, truth, change, scale=1):
    os.makedirs(out, exist_ok=True)
    items = json.loads(json.dumps(truth))
    for item in items["items"]:
        photo = cv2.imread(os.path.join(src, item["image"]))
        cv2.imwrite(os.path.join(out, item["image"]), change(photo, item), [cv2.IMWRITE_JPEG_QUALITY, 95])
        if scale != 1:  # pixel-valued truth follows the photo; CI and CVAI are ratios and stay
            for key in ("head_diam", "head_px", "width", "height"):
                if item.get(key) is not None:
                    item[key] *= scale
            for key in ("nose", "bbox"):
                if item.get(key):
                    item[key] = [c * scale for c in item[key]]
            if isinstance(item.get("sticker"), list):  # data.py: the disc in pixels
                item["sticker"] = [c * scale for c in item["sticker"]]
    json.dump(items, open(os.path.join(out, "truth.json"), "w"))


if __name__ == "__main__":
    mode, src, out = sys.argv[1], sys.argv[2], sys.argv[3]
    truth = json.load(open(os.path.join(src, "truth.json")))
    if mode == "global":
        for name, f in GLOBAL.items():
            write_variant(src, os.path.join(out, name), truth, lambda im, _item, f=f: f(im), 2 if name == "double" else 1)
            print(name, flush=True)
    elif mode == "blur":
        for k in (float(x) for x in sys.argv[4].split(",")):
            write_variant(src, os.path.join(out, f"k{k:.3f}"), truth, lambda im, item, k=k: cv2.GaussianBlur(im, (0, 0), k * head_diameter(item)))
            print(f"k{k:.3f}", flush=True)
    else:
        sys.exit(__doc__)
