"""Build a render3 set from its seed: scenes sampled here, rendered by Blender (one process at a time, in
batches), developed by post.py, written in the layout of ../data.py's evaluation sets.

    /usr/bin/python3 models/head-contour/render3/build.py set OUT_DIR N SEED [--res 320] [--batch 8] [--threads 2]
    /usr/bin/python3 models/head-contour/render3/build.py render N SEED     (only fill the cache)
    /usr/bin/python3 models/head-contour/render3/build.py shards OUT_DIR N SEED [--shard 100]
        (training views in ../data.py's shard layout, for train.py; SEED 330001 and up, never a judged seed;
        every complete group of 100 scenes is also packed into ../sets/render3-train-SEED-KKKK.tar.gz)
    /usr/bin/python3 models/head-contour/render3/build.py keep N SEED   (only pack the complete groups)

Training scenes survive sessions as kept packs (../sets/, committed; see ../sets/README.md): the developed
photo, its masks and truth, about 1.5 MB per 100 scenes; `shards` unpacks them first and renders only what
neither the cache nor a pack holds.

Scene i of a set always gets SeedSequence(SEED).spawn(N)[i], so a set rebuilds exactly from its seed and a
longer set extends a shorter one. Blender's output is cached in
models/head-contour/data/render3/cache/SEED/NNNNN/ (git-ignored) and a scene whose cache is complete is
never rendered again, so a stopped build resumes where it stopped. Blender runs as
`nice -n 19 blender -b --factory-startup -noaudio -P blend.py -- jobs.json`, under a lock file so that
two builds never render at once.
"""
import argparse
import fcntl
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import sample  # noqa: E402

CACHE = os.path.join(os.path.dirname(HERE), "data", "render3", "cache")
LOCK = os.path.join(os.path.dirname(HERE), "data", "render3", "blender.lock")
KEPT = os.path.join(os.path.dirname(HERE), "data", "render3", "kept")  # training scenes unpacked from sets/
SETS = os.path.join(os.path.dirname(HERE), "sets")

# render3's seeds (docs/adr/0152): the held-out set and the tuning set are never training data.
HELD_OUT_SEED = 310001
TUNING_SEED = 320001
TRAINING_SEED = 330001


def scene_seeds(seed, n):
    return [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(n)]


def scene(seed, n, i):
    return sample.sample_scene(np.random.default_rng(scene_seeds(seed, n)[i]))


def cache_dir(seed, i):
    return os.path.join(CACHE, str(seed), f"{i:05d}")


def render(seed, n, res=320, batch=8, threads=2, log=print):
    """Fill the cache for scenes 0..n-1 of a seed; returns seconds per rendered scene."""
    seeds = scene_seeds(seed, n)
    todo = [i for i in range(n) if not os.path.exists(os.path.join(cache_dir(seed, i), "meta.json"))
            and not os.path.exists(os.path.join(kept_dir(seed, i), "scene.json"))]  # a kept training scene is developed already
    os.makedirs(os.path.dirname(LOCK), exist_ok=True)
    done, t0 = 0, time.time()
    for b in range(0, len(todo), batch):
        idx = todo[b:b + batch]
        jobs = [{"dir": cache_dir(seed, i), "params": sample.sample_scene(np.random.default_rng(seeds[i]))} for i in idx]
        spec = os.path.join(CACHE, str(seed), f"jobs_{idx[0]:05d}.json")
        os.makedirs(os.path.dirname(spec), exist_ok=True)
        with open(spec, "w") as f:
            json.dump({"res": res, "threads": threads, "jobs": jobs}, f)
        with open(LOCK, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one Blender at a time
            cmd = ["nice", "-n", "19", "blender", "-b", "--factory-startup", "-noaudio", "-P", os.path.join(HERE, "blend.py"), "--", spec]
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in r.stdout.splitlines():
            if line.startswith("render3:") or "Error" in line or "Traceback" in line:
                log(line)
        if r.returncode != 0 or not all(os.path.exists(os.path.join(cache_dir(seed, i), "meta.json")) for i in idx):
            log(f"render3: Blender exited {r.returncode} with scenes of this batch unrendered; its last lines:")
            for line in r.stdout.splitlines()[-15:]:
                log(line)
        os.remove(spec)
        done += sum(os.path.exists(os.path.join(cache_dir(seed, i), "meta.json")) for i in idx)
        if done:
            log(f"render3 seed {seed}: {done}/{len(todo)} rendered, {(time.time() - t0) / done:.1f} s per image (wall, Blender niced)")
    return (time.time() - t0) / max(1, done)


def write_set(out, seed, n):
    """The developed photos and truth.json (data.py eval layout plus render3's own fields)."""
    import cv2
    import post
    os.makedirs(out, exist_ok=True)
    seeds = scene_seeds(seed, n)
    items = []
    for i in range(n):
        d = cache_dir(seed, i)
        if not os.path.exists(os.path.join(d, "meta.json")):
            # a judged set is all of its scenes or nothing (docs/adr/0152): no truth.json with gaps
            raise SystemExit(f"render3: scene {i} of seed {seed} has not been rendered ({d}); run the build again")
        img, t = post.finish(d, seeds[i] ^ 0x5EED)
        name = f"{i:04d}.jpg"
        cv2.imwrite(os.path.join(out, name), img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 97])
        cv2.imwrite(os.path.join(out, f"{i:04d}_mask.png"), t["mask"] * 255)
        m = t["meta"]
        p = m["params"]
        st = None
        if m["sticker"]:
            st = {"mm": m["sticker"]["mm"], "height_mm": m["sticker"]["height_mm"]}
            sm = t["sticker_mask"]
            if sm.any():
                ys, xs = np.nonzero(sm)
                st["disc"] = [float(xs.mean() + 0.5), float(ys.mean() + 0.5), float(np.sqrt(sm.sum() / np.pi))]
        ys, xs = np.nonzero(t["full"])
        items.append({
            "image": name, "ci": m["ci"], "cvai": m["cvai"], "cva_mm": m["cva_mm"], "length_mm": m["length_mm"],
            "reasons": t["reasons"], "wanted": p["want"], "cap": p["cover"]["cap"], "kind": p["head"]["kind"],
            "hair": p["cover"].get("hair_model", p["cover"].get("cap_kind")), "body": p["body"]["kind"],
            "background": p["background"]["kind"], "tone": p["tone"],
            "sticker": st, "nose": t["nose"], "nose_uv": m["nose_uv"], "nose_pixels": m["figures"]["nose_pixels"],
            "head_diam": t["head_diam"], "blur": t["blur"], "effects": t["effects"], "figures": m["figures"],
            "bbox": [float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)] if len(xs) else None,
            "camera_to_section_cm": m["camera_to_section_cm"], "lens_mm": m["lens_mm"],
            "render_seconds": m["seconds"]["passes"] + m["seconds"]["beauty"],
            "width": int(img.shape[1]), "height": int(img.shape[0]),
        })
    with open(os.path.join(out, "truth.json"), "w") as f:
        json.dump({"seed": seed, "renderer": "render3 (Blender Cycles)", "items": items}, f)
    return items


def developed(seed, i, scene_seed):
    """Scene i of a training seed as developed: the photo exactly as a kept pack stores it (JPEG quality 97,
    like the judged sets' photos) and what the training views need. From the Blender cache when it holds the
    scene, else from the scene's kept pack (sets/, unpacked under data/render3/kept/), so a shard is the same
    whichever source it was built from."""
    import cv2
    d = cache_dir(seed, i)
    if os.path.exists(os.path.join(d, "meta.json")):
        import post
        img, t = post.finish(d, scene_seed ^ 0x5EED)
        ok, buf = cv2.imencode(".jpg", img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 97])
        ys, xs = np.nonzero(t["full"])
        H, W = img.shape[:2]
        bbox = [float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)] if len(xs) else [0.0, 0.0, float(W), float(H)]
        return {"jpg": buf.tobytes(), "mask": t["mask"], "sticker_mask": t["sticker_mask"], "nose": t["nose"],
                "reasons": [int(r) for r in t["reasons"]], "bbox": bbox, "ci": t["meta"]["ci"], "cvai": t["meta"]["cvai"]}
    k = kept_dir(seed, i)
    if not os.path.exists(os.path.join(k, "scene.json")):
        return None
    with open(os.path.join(k, "scene.json")) as f:
        s = json.load(f)
    with open(os.path.join(k, "photo.jpg"), "rb") as f:
        s["jpg"] = f.read()
    s["mask"] = (cv2.imread(os.path.join(k, "mask.png"), cv2.IMREAD_GRAYSCALE) > 127).astype(np.uint8)
    s["sticker_mask"] = (cv2.imread(os.path.join(k, "sticker.png"), cv2.IMREAD_GRAYSCALE) > 127).astype(np.uint8)
    return s


def kept_dir(seed, i):
    return os.path.join(KEPT, str(seed), f"{i:05d}")


def scene_views(s, seed, idx, n_crops=2):
    """One developed scene (developed()) as training views, as ../data.py's scene_samples makes them from
    render.py: the whole photo letterboxed and n_crops head crops (head 55-85 % of the crop, centre jittered)."""
    import cv2
    import data as D  # ../data.py: the view layout train.py reads
    img = cv2.imdecode(np.frombuffer(s["jpg"], np.uint8), cv2.IMREAD_COLOR)[..., ::-1]
    rng = np.random.default_rng([seed, 7])
    mask, smask = s["mask"].astype(np.float32), s["sticker_mask"].astype(np.float32)
    bx0, by0, bx1, by1 = s["bbox"]
    boxes = [D.letterbox_box(img.shape[1], img.shape[0])] + D.head_crops(rng, (bx0, by0, bx1, by1), n_crops)
    bw, bh = bx1 - bx0, by1 - by0
    out = []
    for (x0, y0, side) in boxes:
        vi, (sc, ox, oy) = D.view(img, x0, y0, side)
        vm, _ = D.view(mask, x0, y0, side)
        vs, _ = D.view(smask, x0, y0, side)
        nx = ny = -1.0
        if s["nose"] is not None:
            nx, ny = (s["nose"][0] - ox) / sc, (s["nose"][1] - oy) / sc
            if not (0 <= nx < D.SIZE and 0 <= ny < D.SIZE):
                nx = ny = -1.0
        reasons = np.zeros(8, np.uint8)
        reasons[list(s["reasons"])] = 1
        out.append((vi, (vm * 255 + 0.5).astype(np.uint8), (vs * 255 + 0.5).astype(np.uint8), np.array([nx, ny], np.float32),
                    reasons, np.float32(max(bw, bh) / (sc * D.SIZE)), idx, s["ci"], s["cvai"]))
    return out


def keep(seed, n, shard=100, sets_dir=None):
    """Training scenes kept across sessions (data/ is not): every complete group of `shard` scenes of a
    training seed is developed and packed into sets/render3-train-SEED-KKKK.tar.gz (photo at JPEG 97, head and
    sticker masks as PNG, scene.json; about 1.5 MB per 100 scenes). Returns the packs written."""
    import gzip
    import io
    import tarfile
    import cv2
    if seed in (HELD_OUT_SEED, TUNING_SEED):
        raise SystemExit("render3: the held-out and tuning seeds are kept by ../sets.py as whole sets, never as training packs")
    sets_dir = sets_dir or SETS
    os.makedirs(sets_dir, exist_ok=True)
    written = []
    seeds = scene_seeds(seed, n)
    for k in range(n // shard):  # complete groups only
        path = os.path.join(sets_dir, f"render3-train-{seed}-{k:04d}.tar.gz")
        idx = range(k * shard, (k + 1) * shard)
        if os.path.exists(path) or not all(os.path.exists(os.path.join(cache_dir(seed, i), "meta.json")) for i in idx):
            continue
        tmp = path + ".tmp"
        # gzip's own time zeroed, like every member's, so a pack is the same bytes whenever it is made
        with open(tmp, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz, \
                tarfile.open(fileobj=gz, mode="w", format=tarfile.USTAR_FORMAT) as tar:
            def add(name, data):
                info = tarfile.TarInfo(name)
                info.size, info.mtime, info.mode = len(data), 0, 0o644
                tar.addfile(info, io.BytesIO(data))
            for i in idx:
                s = developed(seed, i, seeds[i])
                base = f"{seed}/{i:05d}/"
                add(base + "photo.jpg", s.pop("jpg"))
                add(base + "mask.png", cv2.imencode(".png", s.pop("mask") * 255)[1].tobytes())
                add(base + "sticker.png", cv2.imencode(".png", s.pop("sticker_mask") * 255)[1].tobytes())
                add(base + "scene.json", json.dumps(s, sort_keys=True).encode())
        os.replace(tmp, path)
        written.append(path)
    return written


def unkeep(seed, sets_dir=None):
    """Unpacks a training seed's kept packs into data/render3/kept/ (scenes already there are left alone)."""
    import glob
    import tarfile
    sets_dir = sets_dir or SETS
    n = 0
    for path in sorted(glob.glob(os.path.join(sets_dir, f"render3-train-{seed}-*.tar.gz"))):
        with tarfile.open(path) as tar:
            members = tar.getmembers()
            for m in members:
                parts = m.name.split("/")
                if not m.isfile() or len(parts) != 3 or parts[0] != str(seed) or ".." in parts:
                    raise SystemExit(f"render3: {path} holds {m.name}, not a kept scene of seed {seed}")
            if any(not os.path.exists(os.path.join(KEPT, m.name.rsplit("/", 1)[0], "scene.json")) for m in members):
                # scene.json last in each scene, so a scene is never seen half unpacked
                tar.extractall(KEPT, members=sorted(members, key=lambda m: m.name.endswith("scene.json")))
                n += 1
    return n


def write_shards(out, seed, n, shard=100):
    """Complete shards only: shard k holds scenes k*shard.. and is written once all of them are developed
    (from the Blender cache or a kept pack)."""
    import data as D
    os.makedirs(out, exist_ok=True)
    seeds = scene_seeds(seed, n)
    written = 0
    for k in range((n + shard - 1) // shard):
        path = os.path.join(out, f"shard_{k:04d}.npz")
        idx = range(k * shard, min(n, (k + 1) * shard))
        if os.path.exists(path):
            continue
        scenes = [developed(seed, i, seeds[i]) for i in idx]
        if any(s is None for s in scenes):
            continue
        flat = [v for i, s in zip(idx, scenes) for v in scene_views(s, seeds[i], i)]
        tmp = path + ".tmp.npz"
        np.savez(tmp, **D._pack(flat))
        os.replace(tmp, path)
        written += 1
    return written


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["set", "render", "shards", "keep"])
    ap.add_argument("--shard", type=int, default=100)
    ap.add_argument("args", nargs="+")
    ap.add_argument("--res", type=int, default=320)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    if a.mode == "keep":  # build.py keep N SEED: pack every complete group of --shard scenes into ../sets/
        n, seed = int(a.args[0]), int(a.args[1])
        for p in keep(seed, n, a.shard):
            print(f"render3 keep: {p} ({os.path.getsize(p) / 1e6:.2f} MB)", flush=True)
        sys.exit(0)
    if a.mode in ("set", "shards"):
        out, n, seed = a.args[0], int(a.args[1]), int(a.args[2])
    else:
        out, n, seed = None, int(a.args[0]), int(a.args[1])
    if a.mode == "shards" and seed in (HELD_OUT_SEED, TUNING_SEED):
        sys.exit("render3: the held-out and tuning seeds are never training data (docs/adr/0152)")
    if a.mode == "shards":  # shard by shard, so training can start on the first ones
        print(f"render3 shards: {unkeep(seed)} kept packs unpacked", flush=True)
        for k in range(0, n, a.shard):
            render(seed, min(n, k + a.shard), a.res, a.batch, a.threads)
            print(f"render3 shards {out}: {write_shards(out, seed, min(n, k + a.shard), a.shard)} new", flush=True)
            for p in keep(seed, min(n, k + a.shard), a.shard):  # commit these: data/ does not survive a session
                print(f"render3 keep: {p} ({os.path.getsize(p) / 1e6:.2f} MB)", flush=True)
        sys.exit(0)
    spi = render(seed, n, a.res, a.batch, a.threads)
    if out:
        items = write_set(out, seed, n)
        good = sum(1 for it in items if not it["reasons"])
        secs = [it["render_seconds"] for it in items]
        print(f"render3 set {out}: {len(items)} photos ({good} good) from seed {seed}; Blender seconds per image: "
              f"median {np.median(secs):.1f}, mean {np.mean(secs):.1f}", flush=True)
