"""Fit the quality head on frozen features of a trained map model, then export ONNX.

The map branch (mask / nose / sticker) is kept as trained. The eight reason logits come from
  qv=3: an MLP on the mean and max of every encoder/decoder level plus statistics of the predicted maps;
  qv=4: the same pooled statistics plus a small conv pyramid over the decoder's 40, 20 and 10 px levels,
        the deepest encoder level and the predicted probabilities (train.py, HeadContourNet).
The backbone runs once per view and quarter turn (no gradient); its outputs are cached in half
precision and the head is fitted on them. Each reason's logit is then shifted so that, on held-out
head-crop views with the logits averaged over the four quarter turns as the measurement does, at most
`--fpr` of good views are flagged for it.

usage: fit_quality.py MAPS_MODEL.pt DATA(dirs,comma-separated) OUT_DIR [--seed S] [--qv 4] [--paint P] [--resume]

`--paint P` paints blotch patterns on the head of a share P of the views not labelled blurry before the
features are extracted (models/head-contour/lab/0128; off by default, so earlier fits are unchanged).

After every epoch OUT_DIR/quality-checkpoint.pt holds the head, the optimiser, the epoch and the random
generator; `--resume` re-extracts the (deterministic) features and goes on from the next epoch, and
`--session-minutes M` ends a session after the epoch that passes M minutes.
"""
import argparse
import json
import os
import time

import numpy as np
import torch
import torch.nn.functional as F

from data import load_shards
from onnx_init import widths_of
from train import HeadContourNet, export_onnx, paint_surface

TURNS = 4


# What the v4 head reads, per view: name -> how to take it from (maps, levels)
V4_INPUTS = {
    "y2": lambda m, L: L[7],
    "maps40": lambda m, L: F.avg_pool2d(torch.sigmoid(m), 4),
    "y3": lambda m, L: L[6],
    "y4": lambda m, L: L[5],
    "x5": lambda m, L: L[4],
}


def extract(model, img, qv, turns, bs=48):
    """Features of the views `turns[k]` (view indices) turned by k quarter turns, one row per (turn, view):
    ({name: (rows, ...)}, row index (TURNS, N) with -1 where not extracted). Half precision, except the
    pooled statistics, which are standardised later."""
    cache = {}
    total = sum(len(ix) for ix in turns.values())
    row = torch.full((TURNS, len(img)), -1, dtype=torch.long)
    at = 0
    with torch.no_grad():
        for k, ix in turns.items():
            for i in range(0, len(ix), bs):
                sel = ix[i:i + bs]
                batch = np.ascontiguousarray(np.rot90(img[sel], k, axes=(1, 2)))
                x = torch.from_numpy(batch).permute(0, 3, 1, 2).float() / 255
                m, L = model.trunk(x)
                parts = {"pooled": model.quality_features(m, L)}
                if qv == 4:
                    parts.update({name: f(m, L).half() for name, f in V4_INPUTS.items()})
                for name, t in parts.items():
                    if name not in cache:
                        cache[name] = torch.empty((total,) + tuple(t.shape[1:]), dtype=t.dtype)
                    cache[name][at:at + len(t)] = t
                row[k, torch.from_numpy(sel)] = torch.arange(at, at + len(sel))
                at += len(sel)
    return cache, row


def paint_views(d, p, seed, chunk=256):
    """Paint blotch patterns on the head of a share `p` of the views without the blur label, in place
    (train.paint_surface, models/head-contour/lab/0110 and 0128): labels and truth unchanged. Blurry views are left as they
    are, so that sharp-edged blotches never sit on a view labelled blurry. A generator of its own."""
    g = torch.Generator().manual_seed(128_000 + seed)
    img = d["img"]
    painted = 0
    for i in range(0, len(img), chunk):
        sl = slice(i, i + chunk)
        x = torch.from_numpy(img[sl]).permute(0, 3, 1, 2).float() / 255
        mask = torch.from_numpy(d["mask"][sl])[:, None].float() / 255
        stk = torch.from_numpy(d["sticker"][sl])[:, None].float() / 255
        nose = torch.from_numpy(d["nose"][sl]).float()
        eligible = torch.from_numpy(d["reasons"][sl, 0] == 0)
        out, done = paint_surface(x, mask, stk, nose, eligible, g, p=p)
        img[sl] = (out * 255 + 0.5).clamp(0, 255).to(torch.uint8).permute(0, 2, 3, 1).numpy()
        painted += int(done.sum())
    return painted


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("maps_model")
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--fpr", type=float, default=0.006)
    ap.add_argument("--qv", type=int, default=4, choices=(3, 4))
    ap.add_argument("--epochs", type=int, default=0, help="default: 120 for qv=3, 14 for qv=4")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--train-turns", type=int, default=2, choices=(2, 4))
    ap.add_argument("--dropout", type=float, default=0.2)
    ap.add_argument("--paint", type=float, default=0.0,
                    help="share of the views without the blur label painted with blotches on the head before fitting (models/head-contour/lab/0128; 0: off)")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--session-minutes", type=float, default=0)
    args = ap.parse_args()
    epochs = args.epochs or (120 if args.qv == 3 else 14)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    os.makedirs(args.out, exist_ok=True)
    logf = open(os.path.join(args.out, "training-log.txt"), "a")

    def log(msg):
        line = f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} [quality] {msg}"
        print(line, flush=True)
        logf.write(line + "\n")
        logf.flush()

    maps = torch.load(args.maps_model)
    # the head's widths follow the maps' (a --widen run's maps are wider than 0.5.0's; models/head-contour/lab/0121)
    model = HeadContourNet(ch=widths_of(maps), qv=args.qv)
    own = model.state_dict()
    sd = {k: v for k, v in maps.items() if k in own and own[k].shape == v.shape and not k.startswith(("quality", "qconv", "q_"))}
    trunk = [k for k in own if not k.startswith(("quality", "qconv", "q_"))]
    missing = [k for k in trunk if k not in sd]
    if missing:
        raise SystemExit(f"{args.maps_model} lacks {len(missing)} map weights of this network, e.g. {missing[:3]}")
    model.load_state_dict(sd, strict=False)
    log(f"maps: {len(sd)} weights from {args.maps_model}, widths {list(widths_of(maps))}")
    model.quality[2].p = args.dropout
    model.eval()
    d, nf = load_shards(args.data)
    t0 = time.time()
    if args.paint > 0:
        log(f"painted {paint_views(d, args.paint, args.seed)} of {len(d['img'])} views (--paint {args.paint})")
    Y = torch.from_numpy(d["reasons"]).float()
    frac = torch.from_numpy(d["frac"]).float()
    scene = d["scene"] + 100000 * np.cumsum(np.r_[0, np.diff(d["scene"]) < -50])  # distinct ids across shard dirs
    n = len(Y)
    rng = np.random.default_rng(args.seed)
    us = np.unique(scene)
    val_s = set(rng.choice(us, size=len(us) // 8, replace=False).tolist())
    is_val = np.array([s in val_s for s in scene])
    tr_v, va_v = np.nonzero(~is_val)[0], np.nonzero(is_val)[0]
    # Held-out views in all four turns (the thresholds are set on their average); training views in
    # `--train-turns` of them, alternating, which halves the backbone passes for little loss.
    turns = {}
    for k in range(TURNS):
        trained = tr_v if args.train_turns == 4 else tr_v[tr_v % 2 == k % 2]
        turns[k] = np.sort(np.concatenate([trained, va_v]))
    C, R = extract(model, d["img"], args.qv, turns)
    del d
    log(f"qv={args.qv}: features of {len(R[R >= 0])} (view, quarter turn) pairs from {n} views in {nf} shards in {time.time() - t0:.0f}s")
    va = torch.from_numpy(va_v)
    train_rows = torch.cat([R[k, torch.from_numpy(turns[k][~is_val[turns[k]]])] for k in range(TURNS)])
    row_view = torch.empty(len(C["pooled"]), dtype=torch.long)
    for k in range(TURNS):
        row_view[R[k][R[k] >= 0]] = torch.nonzero(R[k] >= 0)[:, 0]
    P = C.pop("pooled")
    mu, sd_ = P[train_rows].mean(0), P[train_rows].std(0) + 1e-4
    model.q_mean.copy_(mu)
    model.q_std.copy_(sd_)
    P = (P - mu) / sd_

    def head_logits(rows):
        if args.qv == 3:
            return model.quality(P[rows])
        return model.quality_v4(*(C[name][rows].float() for name in V4_INPUTS), P[rows])

    params = list(model.quality.parameters()) + (list(model.qconv.parameters()) if args.qv == 4 else [])
    opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=1e-2)
    bs = 256 if args.qv == 3 else 64
    steps = epochs * ((len(train_rows) + bs - 1) // bs)
    step = 0
    t1 = time.time()
    first = 0
    ckpt_path = os.path.join(args.out, "quality-checkpoint.pt")
    head_keys = lambda sd: {k: v for k, v in sd.items() if k.startswith(("quality", "qconv"))}
    if args.resume and os.path.exists(ckpt_path):
        ck = torch.load(ckpt_path)
        model.load_state_dict(ck["head"], strict=False)
        opt.load_state_dict(ck["opt"])
        first, step = ck["epoch"], ck["step"]
        torch.set_rng_state(ck["torch_rng"])
        log(f"resume from {ckpt_path}: {first}/{epochs} epochs done")
    for ep in range(first, epochs):
        model.quality.train()
        if args.qv == 4:
            model.qconv.train()
        perm = train_rows[torch.randperm(len(train_rows))]
        run = 0.0
        for i in range(0, len(perm), bs):
            chunk = perm[i:i + bs]
            sel = row_view[chunk]
            qw = torch.ones(len(sel), 8)
            qw[:, 0] = torch.where(frac[sel] < 0.45, 0.3, 1.0)  # blur is hard to judge on a tiny head
            loss = (F.binary_cross_entropy_with_logits(head_logits(chunk), Y[sel], reduction="none") * qw).mean()
            for g in opt.param_groups:
                g["lr"] = args.lr * min(1.0, (step + 1) / 200) * 0.5 * (1 + np.cos(np.pi * step / steps))
            opt.zero_grad()
            loss.backward()
            opt.step()
            run = 0.98 * run + 0.02 * float(loss) if step else float(loss)
            step += 1
        model.quality.eval()
        if args.qv == 4:
            model.qconv.eval()
        with torch.no_grad():
            vl = sum(float(F.binary_cross_entropy_with_logits(head_logits(R[0, va[i:i + 256]]), Y[va[i:i + 256]], reduction="sum"))
                     for i in range(0, len(va), 256)) / (len(va) * 8)
        log(f"epoch {ep + 1}/{epochs} loss={run:.4f} val={vl:.4f} t={(time.time() - t1) / 60:.1f}min")
        torch.save({"head": head_keys(model.state_dict()), "opt": opt.state_dict(), "epoch": ep + 1, "step": step,
                    "torch_rng": torch.get_rng_state()}, ckpt_path + ".tmp")
        os.replace(ckpt_path + ".tmp", ckpt_path)
        if args.session_minutes and ep + 1 < epochs and time.time() - t0 > args.session_minutes * 60:
            log(f"session ends after epoch {ep + 1}/{epochs}: run again with --resume to go on")
            raise SystemExit(75)  # EX_TEMPFAIL: not finished, resumable
    model.quality.eval()
    if args.qv == 4:
        model.qconv.eval()

    def val_logits():
        # The measurement averages the reason logits of the close-up's quarter turns (measure_views in
        # model.json, core/src/measurement/views.ts), so the thresholds are set on those averages.
        with torch.no_grad():
            return sum(torch.cat([head_logits(R[k, va[i:i + 256]]) for i in range(0, len(va), 256)]) for k in range(TURNS)) / TURNS

    Lv = val_logits()
    # per-reason logit shift: on held-out head-crop views, flag at most `fpr` of good views
    crop = frac[va] >= 0.45
    good = (Y[va].sum(1) == 0) & crop
    shifts = []
    report = {}
    for r in range(8):
        lg = Lv[good, r]
        thr = float(torch.quantile(lg, 1 - args.fpr)) if len(lg) else 0.0
        thr = max(thr, -1.0)  # never flag more readily than p = 0.27
        shifts.append(thr)
        pos = (Y[va, r] > 0.5) & crop
        rec = float((Lv[pos, r] > thr).float().mean()) if pos.any() else float("nan")
        report[r] = {"val_pos": int(pos.sum()), "recall": round(rec, 3), "threshold_logit": round(thr, 3)}
    with torch.no_grad():
        model.quality[-1].bias -= torch.tensor(shifts)
    Lv = val_logits()
    acc = float((Lv[good] < 0).all(1).float().mean())
    log(f"val (head-crop views, {TURNS} turns averaged): good accepted {acc:.3f}; per reason {json.dumps(report)}")
    torch.save(model.state_dict(), os.path.join(args.out, "model.pt"))
    export_onnx(model, os.path.join(args.out, "head-contour.onnx"))
    info = {"qv": args.qv, "maps_model": args.maps_model, "params": sum(p.numel() for p in model.parameters()),
            "epochs": epochs, "fit_minutes": round((time.time() - t0) / 60, 1), "threshold_views": TURNS,
            "train_turns": args.train_turns, "quality_train_rows": int(len(train_rows)), "quality_val_views": int(len(va)),
            "onnx_bytes": os.path.getsize(os.path.join(args.out, "head-contour.onnx"))}
    json.dump(info, open(os.path.join(args.out, "quality-info.json"), "w"), indent=1)
    log(f"exported {os.path.join(args.out, 'head-contour.onnx')} {info}")


if __name__ == "__main__":
    main()
