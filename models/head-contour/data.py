"""Build training / evaluation sets from the renderer.

Each rendered photo gives one whole-photo letterboxed view and two head crops (head filling
55-85% of the crop, jittered), all 160 x 160, with soft mask and sticker targets, the nose-tip
position in view pixels (pixel centres at i + 0.5) and the eight reason labels.

usage: data.py train OUT.npz N_SCENES SEED
       data.py shards OUT_DIR N_SCENES SEED [PROCS]   (shards of 100 scenes; PROCS workers, default 2)
       data.py eval  OUT_DIR N_SCENES SEED   (full photos as JPEG + truth.json, for evaluate.py)
"""
import json
import math
import os
import sys
from multiprocessing import Pool

import cv2
import numpy as np

import render as R
from geometry import measure_head

SIZE = 160


def view(img, x0, y0, side, size=SIZE, interp_mask=False):
    """The size x size view of the square [x0, x0+side) x [y0, y0+side) of img (zero padded).
    Integer-aligned in source pixels; returns (view, (scale, ox, oy)) with photo = o + view * scale."""
    x0, y0, side = int(round(x0)), int(round(y0)), max(1, int(round(side)))
    H, W = img.shape[:2]
    shape = (side, side) + img.shape[2:]
    out = np.zeros(shape, img.dtype)
    sx0, sy0 = max(0, x0), max(0, y0)
    sx1, sy1 = min(W, x0 + side), min(H, y0 + side)
    if sx1 > sx0 and sy1 > sy0:
        out[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = img[sy0:sy1, sx0:sx1]
    if side >= size:
        v = cv2.resize(out, (size, size), interpolation=cv2.INTER_AREA)
    else:
        v = cv2.resize(out, (size, size), interpolation=cv2.INTER_LINEAR)
    return v, (side / size, x0, y0)


def letterbox_box(W, H):
    side = max(W, H)
    return (W - side) / 2, (H - side) / 2, side


def head_crops(rng, bbox, n_crops):
    """n_crops square boxes (x0, y0, side) around the head's box: the head 55-85 % of the side, the centre
    jittered by +-6 % of it (render3/build.py makes its training views the same way)."""
    bx0, by0, bx1, by1 = bbox
    bw, bh = bx1 - bx0, by1 - by0
    boxes = []
    for _ in range(n_crops):
        side = max(bw, bh) / rng.uniform(0.55, 0.85)
        cx = (bx0 + bx1) / 2 + rng.uniform(-0.06, 0.06) * side
        cy = (by0 + by1) / 2 + rng.uniform(-0.06, 0.06) * side
        boxes.append((cx - side / 2, cy - side / 2, side))
    return boxes


def scene_samples(args):
    idx, seed, n_crops = args
    rng = np.random.default_rng(seed)
    p = R.sample_scene(rng)
    r = R.render_sampled(p)
    img = r["image"]
    H, W = img.shape[:2]
    mask = r["mask"].astype(np.float32)
    smask = r["sticker_mask"].astype(np.float32)
    boxes = [letterbox_box(W, H)] + head_crops(rng, r["bbox"], n_crops)
    bx0, by0, bx1, by1 = r["bbox"]
    bw, bh = bx1 - bx0, by1 - by0
    out = []
    for (x0, y0, side) in boxes:
        vi, (sc, ox, oy) = view(img, x0, y0, side)
        vm, _ = view(mask, x0, y0, side)
        vs, _ = view(smask, x0, y0, side)
        if r["nose"] is not None:
            nx, ny = (r["nose"][0] - ox) / sc, (r["nose"][1] - oy) / sc
            if not (0 <= nx < SIZE and 0 <= ny < SIZE):
                nx = ny = -1.0
        else:
            nx = ny = -1.0
        frac = max(bw, bh) / (sc * SIZE)
        reasons = np.zeros(8, np.uint8)
        reasons[list(r["reasons"])] = 1
        out.append((vi, (vm * 255 + 0.5).astype(np.uint8), (vs * 255 + 0.5).astype(np.uint8),
                    np.array([nx, ny], np.float32), reasons, np.float32(frac), idx, r["ci"], r["cvai"]))
    return out


def build_train(path, n, seed, n_crops=2, procs=2):
    ss = np.random.SeedSequence(seed)
    seeds = [int(s.generate_state(1)[0]) for s in ss.spawn(n)]
    with Pool(procs) as pool:
        res = pool.map(scene_samples, [(i, seeds[i], n_crops) for i in range(n)], chunksize=16)
    flat = [s for r in res for s in r]
    np.savez(path,
             img=np.stack([s[0] for s in flat]), mask=np.stack([s[1] for s in flat]), sticker=np.stack([s[2] for s in flat]),
             nose=np.stack([s[3] for s in flat]), reasons=np.stack([s[4] for s in flat]), frac=np.array([s[5] for s in flat]),
             scene=np.array([s[6] for s in flat]), ci=np.array([s[7] for s in flat]), cvai=np.array([s[8] for s in flat]))
    return len(flat)


def _pack(flat):
    return dict(img=np.stack([s[0] for s in flat]), mask=np.stack([s[1] for s in flat]), sticker=np.stack([s[2] for s in flat]),
                nose=np.stack([s[3] for s in flat]), reasons=np.stack([s[4] for s in flat]), frac=np.array([s[5] for s in flat], np.float32),
                scene=np.array([s[6] for s in flat]), ci=np.array([s[7] for s in flat]), cvai=np.array([s[8] for s in flat]))


def shard_worker(args):
    out_dir, n, seed, shard, worker, procs = args
    cv2.setNumThreads(1)
    ss = np.random.SeedSequence(seed)
    seeds = [int(s.generate_state(1)[0]) for s in ss.spawn(n)]
    n_shards = (n + shard - 1) // shard
    for k in range(worker, n_shards, procs):
        path = os.path.join(out_dir, f"shard_{k:04d}.npz")
        if os.path.exists(path):
            continue
        flat = []
        for i in range(k * shard, min(n, (k + 1) * shard)):
            flat += scene_samples((i, seeds[i], 2))
        tmp = path + ".tmp.npz"
        np.savez(tmp, **_pack(flat))
        os.replace(tmp, path)
    return True


def build_shards(out_dir, n, seed, shard=100, procs=2):
    """Training data as shards of `shard` scenes; scene i always gets the same seed, so the data do not
    depend on the number of workers. A trainer can start on the shards already written."""
    os.makedirs(out_dir, exist_ok=True)
    if procs == 1:  # in this process: shards written in order, and stopping it leaves no orphan worker
        shard_worker((out_dir, n, seed, shard, 0, 1))
        return n
    with Pool(procs) as pool:
        pool.map(shard_worker, [(out_dir, n, seed, shard, w, procs) for w in range(procs)])
    return n


def load_shards(path, with_source=False):
    """All complete shards of a directory (or one .npz file), concatenated. with_source: also "source",
    each view's index among the comma-separated entries of path (a directory listed twice counts twice)."""
    files, src = [], []
    for i, one in enumerate(path.split(",")):  # several shard directories may be given, comma-separated
        fs = [one] if one.endswith(".npz") else sorted(
            os.path.join(one, f) for f in os.listdir(one) if f.startswith("shard_") and f.endswith(".npz") and ".tmp" not in f)
        files += fs
        src += [i] * len(fs)
    parts = [dict(np.load(f)) for f in files]
    if not parts:
        return None, 0
    d = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    if with_source:
        d["source"] = np.concatenate([np.full(len(p["img"]), i, np.int16) for i, p in zip(src, parts)])
    return d, len(files)


def eval_scene(args):
    idx, seed, out_dir = args
    rng = np.random.default_rng(seed)
    p = R.sample_scene(rng)
    r = R.render_sampled(p)
    name = f"{idx:04d}.jpg"
    # the renderer's output is already JPEG-compressed; store losslessly-ish at high quality
    cv2.imwrite(os.path.join(out_dir, name), r["image"][..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 97])
    cv2.imwrite(os.path.join(out_dir, f"{idx:04d}_mask.png"), r["mask"] * 255)
    # the section's own size, for the CVA-in-mm figures (cm in the renderer, mm in the truth)
    g = measure_head(*R.truth_outline(p["shape"]))
    # nose_pixels: how many nose pixels the renderer drew (render.py's visibility rule counts them; ADR 0116)
    return {"image": name, "ci": r["ci"], "cvai": r["cvai"], "reasons": r["reasons"], "nose": r["nose"],
            "nose_pixels": int(r["dbg"][3]), "cva_mm": 10 * (g["A"] - g["B"]), "length_mm": 10 * g["L"],
            "sticker": r["sticker"], "bbox": r["bbox"], "cap": p["cap"], "kind": p["shape"]["kind"],
            "head_diam": r["head_diam"], "width": int(r["image"].shape[1]), "height": int(r["image"].shape[0])}


def build_eval(out_dir, n, seed, procs=2):
    os.makedirs(out_dir, exist_ok=True)
    ss = np.random.SeedSequence(seed)
    seeds = [int(s.generate_state(1)[0]) for s in ss.spawn(n)]
    with Pool(procs) as pool:
        res = pool.map(eval_scene, [(i, seeds[i], out_dir) for i in range(n)], chunksize=8)
    with open(os.path.join(out_dir, "truth.json"), "w") as f:
        json.dump({"seed": seed, "items": res}, f)
    return len(res)


if __name__ == "__main__":
    import time
    t = time.time()
    mode, out, n, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    cv2.setNumThreads(1)
    if mode == "train":
        k = build_train(out, n, seed)
    elif mode == "shards":
        k = build_shards(out, n, seed, procs=int(sys.argv[5]) if len(sys.argv) > 5 else 2)
    else:
        k = build_eval(out, n, seed)
    print(f"{mode}: {k} samples from {n} scenes (seed {seed}) in {time.time() - t:.0f}s", flush=True)
