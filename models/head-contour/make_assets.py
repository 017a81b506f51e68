"""Held-out sample photos, a short video clip, and the quiz image pools, all rendered.

usage: make_assets.py samples OUT_DIR   (6 good + 2 bad JPEGs, truth.json, clip.mp4, clip.y4m)
       make_assets.py quiz OUT_DIR      (cap/ and nocap/ pools + manifest.json)
Seeds here (7001.., 8001..) are never used for training data (training uses SeedSequence(1)).
"""
import json
import math
import os
import shutil
import subprocess
import sys

import cv2
import numpy as np

import render as R

GOOD_TEXT_CAP = "Good image: the whole head outline is visible, only the nose tip shows, and the photo is sharp."
GOOD_TEXT_NOCAP = "Good image: the wet hair lies flat, the whole head outline is visible, only the nose tip shows, and the photo is sharp."


def render_until(rng, want, cap, kind=None, size=(640, 480), hair=None, tries=40, head_frac=(0.55, 0.72), extra=None):
    """Render until the outcome's reasons are exactly `want` (so a quiz image shows one reason)."""
    for _ in range(tries):
        p = R.sample_scene(rng, cap=cap, reasons=list(want), kind=kind)
        p["size"] = size
        p["head_frac"] = rng.uniform(*head_frac)
        p["hand_good"] = False
        if hair:
            p["hair_type"] = hair
        if extra:
            extra(p, rng)
        r = R.render(p)
        if sorted(r["reasons"]) == sorted(want):
            return p, r
    return p, r


def jpg(path, img, q=88):
    cv2.imwrite(path, img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, q])


def samples(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(7001)
    truth = {"note": "Rendered held-out photos (seed 7001), not real infants. CI/CVAI are those of the rendered head's own "
                     "outline seen straight from above; nose/sticker in photo pixels (pixel centres at i+0.5).",
             "sticker_diameter_mm": 30, "images": []}
    kinds = ["typical", "brachy", "dolicho", "plagio", "plagio_brachy", "plagio_dolicho"]
    for i, kind in enumerate(kinds):
        cap = i % 2 == 0
        p, r = render_until(rng, [], cap, kind=kind, hair="wet")
        name = f"good-{i + 1}-{kind.replace('_', '-')}.jpg"
        jpg(os.path.join(out, name), r["image"])
        truth["images"].append({"image": name, "good": True, "reasons": [], "kind": kind, "cap": cap,
                                "ci": round(r["ci"], 2), "cvai": round(r["cvai"], 2), "nose": r["nose"],
                                "sticker": None if r["sticker"] is None else {"x": r["sticker"][0], "y": r["sticker"][1], "radius": r["sticker"][2]},
                                "width": 640, "height": 480})
    for j, reason in enumerate([2, 0]):
        p, r = render_until(rng, [reason], j == 0)
        name = f"bad-{j + 1}.jpg"
        jpg(os.path.join(out, name), r["image"])
        truth["images"].append({"image": name, "good": False, "reasons": [R.REASONS[k] for k in r["reasons"]],
                                "kind": p["shape"]["kind"], "cap": p["cap"], "ci": round(r["ci"], 2), "cvai": round(r["cvai"], 2),
                                "width": 640, "height": 480})
    clip(out, truth)
    with open(os.path.join(out, "truth.json"), "w") as f:
        json.dump(truth, f, indent=1)


def clip(out, truth, fps=15, seconds=10):
    """A moving camera over one head: slow in-plane rotation, distance and position drift; a blurry
    second in the middle (camera shake) so that auto-capture has something to reject."""
    rng = np.random.default_rng(7101)
    p0, r0 = render_until(rng, [], True, kind="plagio", hair="wet")
    W, H = 640, 480
    bgr = np.random.default_rng(7102)
    big = R.background(bgr, H + 200, W + 200)
    tmp = os.path.join(out, "_frames")
    os.makedirs(tmp, exist_ok=True)
    n = fps * seconds
    frames_truth = []
    for k in range(n):
        t = k / n
        p = dict(p0)
        p["yaw"] = p0["yaw"] + 0.5 * math.sin(2 * math.pi * t)
        p["dist"] = p0["dist"] * (1 + 0.12 * math.sin(2 * math.pi * t * 1.5))
        p["head_frac"] = p0["head_frac"] * (1 - 0.1 * math.sin(2 * math.pi * t * 1.5))
        p["cam_tilt"] = (math.radians(2.5 * math.sin(2 * math.pi * t * 2)), math.radians(2.5 * math.cos(2 * math.pi * t)))
        sx = W / 2 + 45 * math.sin(2 * math.pi * t)
        sy = H / 2 + 30 * math.sin(2 * math.pi * t * 2)
        p["shift"] = (sx, sy)
        ox, oy = int(100 + 45 * math.sin(2 * math.pi * t)), int(100 + 30 * math.sin(2 * math.pi * t * 2))
        p["bg_fn"] = lambda h, w, ox=ox, oy=oy: big[oy:oy + h, ox:ox + w].copy()
        p["size"] = (W, H)
        p["blurry"] = 0.45 <= t < 0.55
        p["want"] = [0] if p["blurry"] else []
        r = R.render(p)
        jpg(os.path.join(tmp, f"{k:04d}.jpg"), r["image"], 95)
        frames_truth.append(r["reasons"])
    ff = shutil.which("ffmpeg") or "/usr/bin/ffmpeg"
    mp4 = os.path.join(out, "clip.mp4")
    subprocess.run([ff, "-y", "-loglevel", "error", "-framerate", str(fps), "-i", os.path.join(tmp, "%04d.jpg"), "-c:v", "libx264",
                    "-pix_fmt", "yuv420p", "-crf", "30", "-preset", "veryslow", "-movflags", "+faststart", mp4], check=True)
    # the raw .y4m for Chromium's fake camera is large (~70 MB); it is rebuilt here and git-ignored
    subprocess.run([ff, "-y", "-loglevel", "error", "-i", mp4, "-pix_fmt", "yuv420p", "-s", f"{W}x{H}", os.path.join(out, "clip.y4m")], check=True)
    shutil.rmtree(tmp)
    good = sum(1 for rr in frames_truth if not rr)
    truth["clip"] = {"file": "clip.mp4", "y4m": "clip.y4m (regenerate: ffmpeg -i clip.mp4 -pix_fmt yuv420p clip.y4m)", "fps": fps,
                     "frames": n, "good_frames": good, "ci": round(r0["ci"], 2), "cvai": round(r0["cvai"], 2),
                     "frame_reasons": [[R.REASONS[k] for k in rr] for rr in frames_truth]}


def quiz(out):
    rng = np.random.default_rng(8001)
    manifest = {}
    for pool, cap, n_good, n_bad, hair, good_text in (("cap", True, 25, 24, None, GOOD_TEXT_CAP), ("nocap", False, 12, 17, "wet", GOOD_TEXT_NOCAP)):
        d = os.path.join(out, pool)
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
        entries = []
        bad_reasons = [i % 8 for i in range(n_bad)]
        specs = [("good", None)] * n_good + [("bad", k) for k in bad_reasons]
        order = rng.permutation(len(specs))
        for idx, si in enumerate(order):
            kind_, reason = specs[si]
            want = [] if reason is None else [reason]

            def strong(p, rng, reason=reason):
                # make each bad reason plain enough for a parent to learn from
                if reason == 0:
                    p["blurry"] = True
                if reason == 2 and not p["cut"]:
                    p["hand_over"] = True
                if reason == 5:
                    p["hair_artifact"] = True
            p, r = render_until(rng, want, cap, size=(480, 480), hair=hair, head_frac=(0.55, 0.75), extra=strong)
            name = f"{idx + 1:02d}.jpg"
            jpg(os.path.join(d, name), r["image"], 85)
            entries.append({"image": f"/quiz/{pool}/{name}", "good": reason is None,
                            "reason": good_text if reason is None else R.REASONS[reason]})
        manifest[pool] = entries
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    cv2.setNumThreads(1)
    {"samples": samples, "quiz": quiz}[sys.argv[1]](sys.argv[2])
