"""Render a held-out set of the second renderer family (never used for training).

    /usr/bin/python3 models/head-contour/render2/build_set.py OUT_DIR N [SEED] [--procs 2] [--show K]

Writes OUT_DIR/NNNN.jpg and OUT_DIR/truth.json in the layout of ../data.py's evaluation set (image,
ci, cvai, reasons, cap, kind) plus what the splits need: cva_mm (truth), sticker (null or its
diameter, height above the widest section and distance to the camera), hair model, body placement,
the nose tip's projection (nose, photo pixels) and how many nose pixels show (nose_pixels).
About half the photos are good; each bad photo is re-drawn (up to 4 times) until what the render
shows is exactly the reasons it was meant to show. --show K also writes a contact sheet of K photos.
"""
import argparse
import json
import os
import sys
import time
from multiprocessing import Pool

import cv2
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scene  # noqa: E402

SEED = 500001  # this family's held-out seed; no training script reads it


def draw_reasons(rng):
    if rng.random() < 0.5:
        return []
    k = 1 if rng.random() < 0.85 else 2
    picked = sorted(int(r) for r in rng.choice(8, size=k, replace=False))
    if 7 in picked:  # a back view leaves no room for a nose or face reason
        picked = [r for r in picked if r not in (1, 3, 4, 6)] or [7]
    if 4 in picked and 1 in picked:
        picked.remove(1)
    if 3 in picked and 6 in picked:
        picked.remove(6)
    return picked


def one(args):
    idx, seed, out = args
    rng = np.random.default_rng(seed)
    want = draw_reasons(rng)
    for attempt in range(4):
        p = scene.sample_scene(rng, want)
        r = scene.render(p)
        if r["reasons"] == want:
            break
    name = f"{idx:04d}.jpg"
    cv2.imwrite(os.path.join(out, name), r["image"][..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 97])
    return {"image": name, "ci": r["ci"], "cvai": r["cvai"], "cva_mm": r["cva_mm"], "length_mm": r["length_mm"], "reasons": r["reasons"],
            "wanted": want, "cap": p["cap"], "kind": p["head"]["kind"], "hair": p["hair"], "body": p["body"],
            "sticker": r["sticker"], "head_px": r["head_px"], "camera_to_section_cm": r["camera_to_section_cm"],
            "nose": r["nose"], "nose_pixels": r["nose_pixels"],
            "width": int(r["image"].shape[1]), "height": int(r["image"].shape[0])}


def contact_sheet(out, items, k):
    tiles = []
    for it in items[:k]:
        im = cv2.imread(os.path.join(out, it["image"]))
        s = 240 / max(im.shape[:2])
        im = cv2.resize(im, (int(im.shape[1] * s), int(im.shape[0] * s)))
        tile = np.full((250, 250, 3), 255, np.uint8)
        tile[:im.shape[0], :im.shape[1]] = im
        cv2.putText(tile, f"{it['image'][:4]} {it['reasons']}", (2, 246), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (0, 0, 255), 1)
        tiles.append(tile)
    while len(tiles) % 6:
        tiles.append(np.full((250, 250, 3), 255, np.uint8))
    rows = [np.hstack(tiles[i:i + 6]) for i in range(0, len(tiles), 6)]
    cv2.imwrite(os.path.join(out, "contact.jpg"), np.vstack(rows))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("n", type=int)
    ap.add_argument("seed", type=int, nargs="?", default=SEED)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--show", type=int, default=0)
    a = ap.parse_args()
    cv2.setNumThreads(1)
    os.makedirs(a.out, exist_ok=True)
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(a.seed).spawn(a.n)]
    t = time.time()
    with Pool(a.procs) as pool:
        items = pool.map(one, [(i, seeds[i], a.out) for i in range(a.n)], chunksize=4)
    with open(os.path.join(a.out, "truth.json"), "w") as f:
        json.dump({"seed": a.seed, "renderer": "render2 (triangle mesh)", "items": items}, f)
    if a.show:
        contact_sheet(a.out, items, a.show)
    good = sum(1 for it in items if not it["reasons"])
    print(f"render2: {len(items)} photos ({good} good) from seed {a.seed} in {time.time() - t:.0f}s", flush=True)
