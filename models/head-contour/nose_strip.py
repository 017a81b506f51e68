"""A nose finder that reads the head's rim unrolled into a strip (models/head-contour/lab/0124; a probe, nothing shipped).

The close-up sees a head about 112 px across, so a small nose is a pixel or two of the map's working
resolution (ADR 0116). This probe samples the *photo* along the outline the pipeline traced: for each of
A angles around the outline's centroid, K points on the ray from inside the outline to beyond it, at a
fixed share of the head's radius from the outline. The rim becomes a straight row, the head's size and
turn are gone, and a nose is a bump above that row wherever it is; a small CNN with circular padding
along the angle (so the ears at +-90 degrees are in its context) gives a heatmap over the strip plus one
"no nose" logit, one softmax over all of them.

    /usr/bin/python3 nose_strip.py build OUT.npz DIR[:rows.jsonl] ...   strips + labels of data.py-eval sets
    /usr/bin/python3 nose_strip.py train OUT.pt DATA.npz ... [--epochs E] [--seed S]
    /usr/bin/python3 nose_strip.py judge MODEL.pt DIR:rows.jsonl ...      the pick against the pipeline's

DIR holds truth.json (data.py eval or render2/build_set.py); rows.jsonl is
`generalisation.bench.ts DIR --rows rows.jsonl` (the shipped pipeline's outline and nose per photo).
"""
import json
import math
import os
import sys
import time

import cv2
import numpy as np

A = 256  # angles around the centroid
K = 32  # samples along each ray
LO, HI = -0.2, 0.35  # the ray's span, in head radii from the outline (outside > 0)
NEAR = 0.06  # "at the tip": within this share of the head's size, as the benches count
NO_NOSE, BACK_VIEW = 1, 7  # model.json reasons


def centroid_radius(outline):
    """Area centroid and equivalent radius of a polygon (N, 2)."""
    x, y = outline[:, 0], outline[:, 1]
    xs, ys = np.roll(x, -1), np.roll(y, -1)
    cross = x * ys - xs * y
    area = cross.sum() / 2
    if abs(area) < 1e-6:
        return outline.mean(0), 0.0
    cx = ((x + xs) * cross).sum() / (6 * area)
    cy = ((y + ys) * cross).sum() / (6 * area)
    return np.array([cx, cy]), math.sqrt(abs(area) / math.pi)


def rim_radii(outline, c, n=A):
    """The outline's farthest crossing of each of n rays from c (gaps filled around the circle)."""
    a = outline - c
    e = np.roll(a, -1, axis=0) - a
    th = 2 * np.pi * np.arange(n) / n
    d = np.stack([np.cos(th), np.sin(th)], 1)
    den = d[:, :1] * e[None, :, 1] - d[:, 1:] * e[None, :, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (a[None, :, 0] * e[None, :, 1] - a[None, :, 1] * e[None, :, 0]) / den
        s = (a[None, :, 0] * d[:, 1:] - a[None, :, 1] * d[:, :1]) / den
    ok = (np.abs(den) > 1e-9) & (s >= 0) & (s <= 1) & (t > 0)
    rho = np.where(ok, t, -np.inf).max(1)
    good = np.isfinite(rho)
    if good.sum() < 3:
        return None
    idx = np.arange(n)
    rho = np.interp(idx, idx[good], rho[good], period=n)
    return rho


class Rim:
    """The strip's geometry for one photo: centroid c, radius R, the outline's radius per angle."""

    def __init__(self, outline):
        outline = np.asarray(outline, np.float64)
        self.c, self.R = centroid_radius(outline)
        self.rho = rim_radii(outline, self.c) if self.R > 0 else None

    @property
    def ok(self):
        return self.rho is not None and self.R > 4

    def grid(self):
        th = 2 * np.pi * np.arange(A) / A
        off = LO + (HI - LO) * np.arange(K) / (K - 1)
        r = self.rho[None, :] + off[:, None] * self.R
        return (self.c[0] + r * np.cos(th)[None]).astype(np.float32), (self.c[1] + r * np.sin(th)[None]).astype(np.float32)

    def to_strip(self, p):
        """Photo point -> (k, j) in strip samples (j may be fractional, in [0, A))."""
        v = np.asarray(p, np.float64) - self.c
        th = math.atan2(v[1], v[0]) % (2 * math.pi)
        j = (th / (2 * math.pi) * A) % A
        rho = np.interp(j, np.arange(A + 1), np.append(self.rho, self.rho[0]))
        k = ((math.hypot(*v) - rho) / self.R - LO) / (HI - LO) * (K - 1)
        return k, j

    def to_photo(self, k, j):
        th = 2 * math.pi * j / A
        rho = np.interp(j % A, np.arange(A + 1), np.append(self.rho, self.rho[0]))
        r = rho + (LO + (HI - LO) * k / (K - 1)) * self.R
        return self.c + r * np.array([math.cos(th), math.sin(th)])


def rim_of(outline):
    """The Rim of an outline, or None when the outline is too short or too small to unroll."""
    if outline is None or len(outline) < 8:
        return None
    rim = Rim(outline)
    return rim if rim.ok else None


def sample_strip(img, rim):
    """(K, A, 4) uint8: RGB along the rim, and 255 where the sample lies inside the photo."""
    mx, my = rim.grid()
    step = min(2 * math.pi * rim.R / A, (HI - LO) * rim.R / (K - 1))
    src = cv2.GaussianBlur(img, (0, 0), 0.5 * step) if step > 1.5 else img  # no aliasing from a big head
    rgb = cv2.remap(src, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    h, w = img.shape[:2]
    inside = ((mx >= 0) & (my >= 0) & (mx <= w - 1) & (my <= h - 1)).astype(np.uint8) * 255
    return np.concatenate([rgb, inside[..., None]], 2)


def nose_visible(item):
    r = item["reasons"]
    return NO_NOSE not in r and BACK_VIEW not in r and item.get("nose") is not None


def head_size(item):
    return item.get("head_px") or item.get("head_diam")


def read_rows(spec):
    """'DIR' or 'DIR:rows.jsonl' -> (dir, truth items, rows by image or None)."""
    d, _, rows_path = spec.partition(":")
    truth = json.load(open(os.path.join(d, "truth.json")))["items"]
    rows = None
    if rows_path:
        rows = {}
        for line in open(rows_path):
            if line.strip():
                r = json.loads(line)
                rows[r["image"]] = r
    return d, truth, rows


def truth_outline(d, item):
    m = cv2.imread(os.path.join(d, item["image"].replace(".jpg", "_mask.png")), cv2.IMREAD_GRAYSCALE)
    if m is None:
        return None
    cs, _ = cv2.findContours((m > 127).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not cs:
        return None
    return max(cs, key=cv2.contourArea)[:, 0, :].astype(np.float64) + 0.5


def label_of(item, rim):
    """(k, j) of the true tip in the strip, or None when no nose shows; 'far' when it lies off the strip."""
    if not nose_visible(item):
        return None
    k, j = rim.to_strip(item["nose"])
    if k < -1 or k > K:
        return "far"
    return float(np.clip(k, 0, K - 1)), float(j)


def build(out, specs):
    strips, labels, meta = [], [], []
    far = 0
    for spec in specs:
        d, truth, rows = read_rows(spec)
        for item in truth:
            img = cv2.imread(os.path.join(d, item["image"]))[..., ::-1].copy()
            outlines = []
            if rows is not None and rows.get(item["image"], {}).get("outline"):
                outlines.append(("pipeline", rows[item["image"]]["outline"]))
            t = truth_outline(d, item)
            if t is not None:
                outlines.append(("truth", t))
            for src, o in outlines:
                rim = rim_of(o)
                if rim is None:
                    continue
                lab = label_of(item, rim)
                if lab == "far":
                    far += 1
                    continue
                strips.append(sample_strip(img, rim))
                labels.append((-1.0, -1.0) if lab is None else lab)
                meta.append(f"{d}/{item['image']}:{src}")
    np.savez_compressed(out, strips=np.stack(strips), labels=np.array(labels, np.float32), meta=np.array(meta))
    n_nose = sum(1 for l in labels if l[0] >= 0)
    print(f"{out}: {len(strips)} strips ({n_nose} with a nose, {len(strips) - n_nose} without); {far} noses off the strip left out", flush=True)


# ---------------------------------------------------------------------------------------------- the network
def _torch():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    return torch, nn, F


def make_net():
    torch, nn, F = _torch()

    class CConv(nn.Module):
        """3x3 conv, circular along the angle (width), zero along the ray (height); BN; ReLU."""

        def __init__(self, i, o, dil=1):
            super().__init__()
            self.dil = dil
            self.conv = nn.Conv2d(i, o, 3, dilation=(1, dil), bias=False)
            self.bn = nn.BatchNorm2d(o)

        def forward(self, x):
            x = F.pad(x, (self.dil, self.dil, 0, 0), mode="circular")
            x = F.pad(x, (0, 0, 1, 1))
            return F.relu(self.bn(self.conv(x)))

    class StripNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.e1 = nn.Sequential(CConv(4, 16), CConv(16, 16))
            self.e2 = nn.Sequential(CConv(16, 32), CConv(32, 32))
            self.e3 = nn.Sequential(CConv(32, 48), CConv(48, 48))
            # at 1/8 the angles: dilations 1-2-4-8 reach about 120 degrees either way (the ears and beyond)
            self.e4 = nn.Sequential(CConv(48, 64), CConv(64, 64, 2), CConv(64, 64, 4), CConv(64, 64, 8))
            self.d3 = CConv(64 + 48, 48)
            self.d2 = CConv(48 + 32, 32)
            self.out = nn.Conv2d(32, 1, 1)
            self.none = nn.Linear(128, 1)

        def forward(self, x):
            f1 = self.e1(x)
            f2 = self.e2(F.max_pool2d(f1, 2))
            f3 = self.e3(F.max_pool2d(f2, 2))
            f4 = self.e4(F.max_pool2d(f3, 2))
            u3 = self.d3(torch.cat([F.interpolate(f4, scale_factor=2), f3], 1))
            u2 = self.d2(torch.cat([F.interpolate(u3, scale_factor=2), f2], 1))
            heat = self.out(u2).flatten(1)  # (B, K/2 * A/2)
            pooled = torch.cat([f4.mean((2, 3)), f4.amax((2, 3))], 1)
            return torch.cat([heat, self.none(pooled)], 1)  # the last logit: no nose

    return StripNet()


HK, HA = K // 2, A // 2  # the heatmap's cells


def to_input(strips, rng=None):
    """uint8 (B, K, A, 4) -> float (B, 4, K, A): RGB standardised per strip over the samples inside the photo."""
    x = strips.astype(np.float32) / 255.0
    rgb, inside = x[..., :3], x[..., 3:]
    if rng is not None:  # colour and noise jitter; turns and mirrors are done on the labels' side too
        b = len(x)
        rgb = rgb ** rng.uniform(0.7, 1.4, (b, 1, 1, 1)).astype(np.float32)
        grey = rgb.mean(-1, keepdims=True)
        rgb = grey + (rgb - grey) * rng.uniform(0.5, 1.5, (b, 1, 1, 1)).astype(np.float32)
        rgb = rgb * rng.uniform(0.85, 1.15, (b, 1, 1, 3)).astype(np.float32)
        rgb = rgb + rng.normal(0, 1, rgb.shape).astype(np.float32) * rng.uniform(0, 0.04, (b, 1, 1, 1)).astype(np.float32)
    w = np.maximum(inside.sum((1, 2), keepdims=True), 1)
    mean = (rgb * inside).sum((1, 2), keepdims=True) / w
    std = np.sqrt((((rgb - mean) ** 2) * inside).sum((1, 2), keepdims=True) / w) + 0.03
    rgb = (rgb - mean) / std * inside
    return np.concatenate([rgb, inside * 2 - 1], -1).transpose(0, 3, 1, 2).copy()


def targets(labels, sigma=1.0):
    """(B, HK*HA + 1): a Gaussian around the tip's cell (circular along the angle), or all on 'no nose'."""
    b = len(labels)
    t = np.zeros((b, HK * HA + 1), np.float32)
    kk = np.arange(HK)[:, None] + 0.5
    jj = np.arange(HA)[None, :] + 0.5
    for i, (k, j) in enumerate(labels):
        if k < 0:
            t[i, -1] = 1
            continue
        ck, cj = (k + 0.5) / 2, (j + 0.5) / 2
        dj = np.abs(jj - cj)
        dj = np.minimum(dj, HA - dj)
        g = np.exp(-((kk - ck) ** 2 + dj ** 2) / (2 * sigma ** 2))
        t[i, :-1] = (g / g.sum()).ravel()
    return t


def augment(strips, labels, rng):
    """Turns (a roll along the angle), mirrors, and a shift of up to a sample along the ray (an outline off by that)."""
    s, l = strips.copy(), labels.copy()
    for i in range(len(s)):
        r = int(rng.integers(A))
        s[i] = np.roll(s[i], r, axis=1)
        if l[i, 0] >= 0:
            l[i, 1] = (l[i, 1] + r) % A
        if rng.random() < 0.5:
            s[i] = s[i][:, ::-1]
            if l[i, 0] >= 0:
                l[i, 1] = (A - 1 - l[i, 1]) % A  # column j becomes column A - 1 - j
        dk = int(rng.integers(-1, 2))
        if dk:
            s[i] = np.roll(s[i], dk, axis=0)
            if dk > 0:
                s[i][:dk] = s[i][dk:dk + 1]
            else:
                s[i][dk:] = s[i][dk - 1:dk]
            if l[i, 0] >= 0:
                l[i, 0] = float(np.clip(l[i, 0] + dk, 0, K - 1))
    return s, l


def train(out, data, epochs=10, seed=1, batch=16, lr=2e-3):
    torch, nn, F = _torch()
    torch.set_num_threads(int(os.environ.get("CROWN_THREADS", "2")))
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    parts = [np.load(d) for d in data]
    strips = np.concatenate([p["strips"] for p in parts])
    labels = np.concatenate([p["labels"] for p in parts])
    meta = np.concatenate([p["meta"] for p in parts])
    # hold back a tenth of the *scenes* (both outlines of a photo on the same side)
    photo = np.array([m.rsplit(":", 1)[0] for m in meta])
    names = np.unique(photo)
    held = set(rng.choice(names, len(names) // 10, replace=False))
    val = np.array([p in held for p in photo])
    tr = np.where(~val)[0]
    va = np.where(val)[0]
    net = make_net()
    n_params = sum(p.numel() for p in net.parameters())
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * (len(tr) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.05)
    log = open(out + ".log", "w")

    def say(s):
        print(s, flush=True)
        log.write(s + "\n")
        log.flush()

    say(f"strips {len(strips)} (train {len(tr)}, held back {len(va)}), {n_params} weights, {steps} steps, seed {seed}")
    t0 = time.time()
    step = 0
    for ep in range(epochs):
        net.train()
        order = rng.permutation(tr)
        total = 0.0
        for b in range(len(tr) // batch):
            idx = order[b * batch:(b + 1) * batch]
            s, l = augment(strips[idx], labels[idx], rng)
            x = torch.from_numpy(to_input(s, rng))
            t = torch.from_numpy(targets(l))
            logits = net(x)
            loss = -(t * F.log_softmax(logits, 1)).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            total += loss.item()
        net.eval()
        with torch.no_grad():
            picks = [pick(net, strips[va[i:i + 64]]) for i in range(0, len(va), 64)]
        picks = [p for ps in picks for p in ps]
        right = sum(1 for p, i in zip(picks, va) if _right(p, labels[i]))
        say(f"epoch {ep + 1}: loss {total / max(1, len(tr) // batch):.3f}; held back right {right}/{len(va)}; {time.time() - t0:.0f}s")
        torch.save({"state": net.state_dict(), "A": A, "K": K, "LO": LO, "HI": HI, "seed": seed, "epochs": ep + 1}, out)
    return net


def _right(p, lab):
    if lab[0] < 0:
        return p is None
    if p is None:
        return False
    dj = abs(p[1] - lab[1])
    return min(dj, A - dj) <= 3 and abs(p[0] - lab[0]) <= 3


PRESENCE = 0.5  # a nose when 1 - p(no nose) >= this (fixed before any figure, ADR 0124)


def pick(net, strips):
    """Per strip: (k, j) of the nose in strip samples, or None."""
    torch, _, F = _torch()
    with torch.no_grad():
        p = F.softmax(net(torch.from_numpy(to_input(strips))), 1).numpy()
    out = []
    for q in p:
        if 1 - q[-1] < PRESENCE:
            out.append(None)
            continue
        h = q[:-1].reshape(HK, HA)
        u, v = np.unravel_index(h.argmax(), h.shape)
        ks, js, ws = [], [], []
        for du in (-1, 0, 1):
            for dv in (-1, 0, 1):
                uu, vv = u + du, (v + dv) % HA
                if 0 <= uu < HK:
                    ks.append(uu + 0.5)
                    js.append(v + dv + 0.5)
                    ws.append(h[uu, vv])
        ws = np.array(ws) / (np.sum(ws) + 1e-12)
        k = float(np.dot(ws, ks)) * 2 - 0.5
        j = (float(np.dot(ws, js)) * 2 - 0.5) % A
        out.append((k, j))
    return out


def load(path):
    torch, _, _ = _torch()
    ck = torch.load(path, map_location="cpu")
    assert (ck["A"], ck["K"], ck["LO"], ck["HI"]) == (A, K, LO, HI), "the strip's geometry changed since this model"
    net = make_net()
    net.load_state_dict(ck["state"])
    net.eval()
    return net


def judge(model, specs):
    """Good photos: the pick at the tip / elsewhere / none, beside the pipeline's own nose; photos labelled
    'No nose visible' or 'back view': how often each claims a nose."""
    torch, _, _ = _torch()
    torch.set_num_threads(int(os.environ.get("CROWN_THREADS", "2")))
    net = load(model)
    result = {}
    for spec in specs:
        d, truth, rows = read_rows(spec)
        c = {k: 0 for k in ("good", "tip", "else", "none", "pipe_tip", "pipe_else", "pipe_none", "nonose", "claims", "pipe_claims",
                            "either_tip", "pipe_only_tip", "strip_only_tip")}
        for item in truth:
            row = rows.get(item["image"]) if rows else None
            rim = rim_of(row["outline"]) if row else None
            found = None
            if rim is not None:
                img = cv2.imread(os.path.join(d, item["image"]))[..., ::-1].copy()
                p = pick(net, sample_strip(img, rim)[None])[0]
                if p is not None:
                    found = rim.to_photo(*p)
            pipe = row["nose_at"] if row else None
            size = head_size(item)
            if not item["reasons"]:
                c["good"] += 1
                at = lambda q: q is not None and math.hypot(q[0] - item["nose"][0], q[1] - item["nose"][1]) <= NEAR * size
                s_at, p_at = at(found), at(pipe)
                c["tip" if s_at else "none" if found is None else "else"] += 1
                c["pipe_tip" if p_at else "pipe_none" if pipe is None else "pipe_else"] += 1
                c["either_tip"] += s_at or p_at
                c["pipe_only_tip"] += p_at and not s_at
                c["strip_only_tip"] += s_at and not p_at
            elif NO_NOSE in item["reasons"] or BACK_VIEW in item["reasons"]:
                c["nonose"] += 1
                c["claims"] += found is not None
                c["pipe_claims"] += pipe is not None
        print(f"{d}: good {c['good']}: strip's pick at the tip {c['tip']} / elsewhere {c['else']} / none {c['none']}; "
              f"pipeline's {c['pipe_tip']} / {c['pipe_else']} / {c['pipe_none']}; at the tip by both or either: "
              f"only the pipeline {c['pipe_only_tip']}, only the strip {c['strip_only_tip']}, either {c['either_tip']}", flush=True)
        print(f"  'No nose visible' or back-view photos {c['nonose']}: a nose claimed by the strip {c['claims']}, by the pipeline {c['pipe_claims']}", flush=True)
        result[d] = c
    return result


if __name__ == "__main__":
    cv2.setNumThreads(1)
    mode = sys.argv[1]
    if mode == "build":
        build(sys.argv[2], sys.argv[3:])
    elif mode == "train":
        import argparse
        ap = argparse.ArgumentParser()
        ap.add_argument("out")
        ap.add_argument("data", nargs="+")
        ap.add_argument("--epochs", type=int, default=10)
        ap.add_argument("--seed", type=int, default=1)
        a = ap.parse_args(sys.argv[2:])
        train(a.out, a.data, a.epochs, a.seed)
    elif mode == "judge":
        judge(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
