"""Evaluate the head-contour model on a held-out rendered set (full photos, seed never used in training).

Runs the same two-pass pipeline the TypeScript side uses: pass 1 on the letterboxed photo finds the
head (largest 4-connected region of the mask at p >= 0.5); pass 2 runs on a square crop centred on
that region (head filling ~70% of the crop) and gives the outline (sub-pixel iso-line at 0.5), the
nose tip (heatmap peak >= 0.5, soft-argmax in a 15 x 15 window), the sticker and the quality
verdict. CI / CVAI come from geometry.py (the measurement.md geometry).

usage: evaluate.py EVAL_DIR MODEL.pt OUT_METRICS.json [--onnx head-contour.onnx]
"""
import argparse
import json
import math
import os
import time

import cv2
import numpy as np
import torch

from data import SIZE, letterbox_box, view
from geometry import measure_head, polygon_area, polygon_centroid, trim_bulges
from render import REASONS
from train import HeadContourNet

CROP_FILL = 0.7
NOSE_FALLBACK = False  # overridden by --nose-fallback
NOSE_PRESENCE = 0.5


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def run(model, views, turns=1):
    """Probabilities of the maps and reasons. With turns=2 the model also sees each view turned by a half
    turn, with turns=4 by one, two and three quarter turns, and the logits, turned back, are averaged
    (in the order of core/src/measurement/views.ts)."""
    base = np.stack(views)
    acc = None
    for k in (0, 2, 1, 3)[:turns]:
        x = torch.from_numpy(np.ascontiguousarray(np.rot90(base, k, axes=(1, 2)))).permute(0, 3, 1, 2).float() / 255
        with torch.no_grad():
            m, n, s, q = model(x)
        maps = [np.rot90(t[:, 0].numpy(), -k, axes=(1, 2)) for t in (m, n, s)]
        outs = maps + [q.numpy()]
        acc = outs if acc is None else [a + o for a, o in zip(acc, outs)]
    return tuple(sigmoid(a / turns) for a in acc)


def largest_region(prob, level=0.5):
    binm = (prob >= level).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(binm, connectivity=4)
    if n <= 1:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = stats[k, :4]
    return lab == k, (x, y, w, h)


def trace_outline(prob, member, level=0.5, up=4):
    """Sub-pixel outline of the region (map coords, pixel centres at i + 0.5)."""
    field = np.where(member, np.maximum(prob, level), np.where(prob >= level, 0.0, prob)).astype(np.float32)
    field = np.pad(field, 1)
    big = cv2.resize(field, None, fx=up, fy=up, interpolation=cv2.INTER_LINEAR)
    binm = (big >= level).astype(np.uint8)
    cnts, _ = cv2.findContours(binm, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not cnts:
        return None
    c = max(cnts, key=cv2.contourArea)[:, 0, :].astype(np.float64)
    return (c + 0.5) / up - 1.0  # undo the upsampling and the 1-px pad


def find_nose(hm, presence=0.5, radius=7):
    k = int(np.argmax(hm))
    py, px = divmod(k, hm.shape[1])
    peak = hm[py, px]
    if peak < presence:
        return None
    y0, y1 = max(0, py - radius), min(hm.shape[0], py + radius + 1)
    x0, x1 = max(0, px - radius), min(hm.shape[1], px + radius + 1)
    w = hm[y0:y1, x0:x1] - peak * 0.05
    w = np.maximum(w, 0)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    return np.array([(w * (xs + 0.5)).sum() / w.sum(), (w * (ys + 0.5)).sum() / w.sum()]), float(peak)


def find_sticker(prob):
    r = largest_region(prob)
    if r is None:
        return None
    out = trace_outline(prob, r[0])
    if out is None or len(out) < 3:
        return None
    rad = math.sqrt(abs(polygon_area(out)) / math.pi)
    if rad < 2:
        return None
    return polygon_centroid(out), rad


def run_batched(model, views, bs=32, turns=1):
    outs = [run(model, views[i:i + bs], turns) for i in range(0, len(views), bs)]
    return [np.concatenate([o[k] for o in outs]) for k in range(4)]


def analyse_many(model, imgs, turns=1):
    """Two-pass analysis of photos (RGB uint8), batched. Returns dicts in photo coordinates."""
    v1s, t1s = [], []
    for img in imgs:
        H, W = img.shape[:2]
        x0, y0, side = letterbox_box(W, H)
        v1, t1 = view(img, x0, y0, side)
        v1s.append(v1)
        t1s.append(t1)
    M1, N1, S1, Q1 = run_batched(model, v1s)
    v2s, t2s, found = [], [], []
    for i, img in enumerate(imgs):
        sc1, ox1, oy1 = t1s[i]
        reg = largest_region(M1[i])
        if reg is None:
            found.append(False)
            v2s.append(v1s[i])
            t2s.append(t1s[i])
            continue
        found.append(True)
        bx, by, bw, bh = reg[1]
        px0, py0 = ox1 + bx * sc1, oy1 + by * sc1
        pw, ph = bw * sc1, bh * sc1
        cside = max(pw, ph) / CROP_FILL
        cx, cy = px0 + pw / 2, py0 + ph / 2
        v2, t2 = view(img, cx - cside / 2, cy - cside / 2, cside)
        v2s.append(v2)
        t2s.append(t2)
    M2, N2, S2, Q2 = run_batched(model, v2s, turns=turns)
    results = []
    for i in range(len(imgs)):
        sc1, ox1, oy1 = t1s[i]
        sc2, ox2, oy2 = t2s[i]
        res = {"found": found[i], "quality": Q2[i] if found[i] else Q1[i], "quality1": Q1[i]}
        reg2 = largest_region(M2[i]) if found[i] else None
        if reg2 is not None:
            out = trace_outline(M2[i], reg2[0])
            res["outline"] = trim_bulges(out * sc2 + np.array([ox2, oy2])) if out is not None else None
            nose = find_nose(N2[i], NOSE_PRESENCE)
            if nose is not None:
                res["nose"] = nose[0] * sc2 + np.array([ox2, oy2])
            else:
                nz = find_nose(N1[i]) if NOSE_FALLBACK else None
                res["nose"] = nz[0] * sc1 + np.array([ox1, oy1]) if nz else None
            st = find_sticker(S2[i])
            res["sticker"] = (st[0] * sc2 + np.array([ox2, oy2]), st[1] * sc2) if st else None
            res["view2"] = v2s[i]
            res["maps2"] = (M2[i], N2[i], S2[i])
        results.append(res)
    return results


def analyse(model, img):
    return analyse_many(model, [img])[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("eval_dir")
    ap.add_argument("model")
    ap.add_argument("out")
    ap.add_argument("--onnx", default=None)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--qv", type=int, default=2)
    ap.add_argument("--views", type=int, default=4, choices=(1, 2, 4), help="quarter turns of the close-up averaged (model.json measure_views)")
    ap.add_argument("--nose-fallback", action="store_true", help="take the whole photo's nose where the close-up finds none")
    ap.add_argument("--nose-presence", type=float, default=0.5)
    args = ap.parse_args()
    global NOSE_FALLBACK, NOSE_PRESENCE
    NOSE_FALLBACK, NOSE_PRESENCE = args.nose_fallback, args.nose_presence
    torch.set_num_threads(args.threads)
    model = HeadContourNet(qv=args.qv)
    model.load_state_dict(torch.load(args.model))
    model.eval()
    truth = json.load(open(os.path.join(args.eval_dir, "truth.json")))
    items = truth["items"][: args.limit or None]
    t0 = time.time()
    rows = []
    results = []
    for i in range(0, len(items), 64):
        imgs = [cv2.imread(os.path.join(args.eval_dir, it["image"]))[..., ::-1].copy() for it in items[i:i + 64]]
        results += analyse_many(model, imgs, args.views)
    for it, r in zip(items, results):
        pred = {i for i in range(8) if r["quality"][i] >= 0.5}
        # as core/src/measurement/verdict.ts: no head is an incomplete contour, no nose a missing nose
        if r.get("outline") is None:
            pred.add(2)
        if r.get("nose") is None and 7 not in pred:
            pred.add(1)
        pred = sorted(pred)
        row = {"image": it["image"], "truth_reasons": it["reasons"], "pred_reasons": pred, "ci_true": it["ci"], "cvai_true": it["cvai"],
               "kind": it["kind"], "cap": it["cap"]}
        if r.get("outline") is not None and r.get("nose") is not None:
            g = measure_head(r["outline"], r["nose"])
            if g:
                row["ci"], row["cvai"] = g["ci"], g["cvai"]
        if it["nose"] is not None and r.get("nose") is not None:
            row["nose_err_px"] = float(np.hypot(*(np.array(it["nose"]) - r["nose"])))
            row["nose_err_rel"] = row["nose_err_px"] / it["head_diam"]
        if it["sticker"] is not None and r.get("sticker") is not None:
            row["sticker_diam_rel_err"] = float(r["sticker"][1] / it["sticker"][2] - 1)
        # mask IoU against the rendered truth mask (photo resolution)
        tm = cv2.imread(os.path.join(args.eval_dir, it["image"].replace(".jpg", "_mask.png")), cv2.IMREAD_GRAYSCALE) > 127
        if r.get("outline") is not None:
            pm = np.zeros(tm.shape, np.uint8)
            cv2.fillPoly(pm, [np.round(r["outline"] * 8 - 4).astype(np.int32)], 1, shift=3)
            pm = pm > 0
            row["iou"] = float((pm & tm).sum() / max(1, (pm | tm).sum()))
        rows.append(row)
    dt = time.time() - t0

    good = [r for r in rows if not r["truth_reasons"]]
    bad = [r for r in rows if r["truth_reasons"]]
    meas_good = [r for r in good if "ci" in r]
    acc_good = [r for r in meas_good if not r["pred_reasons"]]

    def mae(rs, k):
        return float(np.mean([abs(r[k] - r[k + "_true"]) for r in rs])) if rs else None

    def pct(rs, k, q):
        return float(np.percentile([abs(r[k] - r[k + "_true"]) for r in rs], q)) if rs else None

    per_reason = {}
    for i, name in enumerate(REASONS):
        tp = sum(1 for r in rows if i in r["truth_reasons"] and i in r["pred_reasons"])
        fn = sum(1 for r in rows if i in r["truth_reasons"] and i not in r["pred_reasons"])
        fp = sum(1 for r in rows if i not in r["truth_reasons"] and i in r["pred_reasons"])
        flagged = sum(1 for r in rows if i in r["truth_reasons"] and r["pred_reasons"])
        per_reason[name] = {"n": tp + fn, "recall": tp / max(1, tp + fn), "precision": tp / max(1, tp + fp),
                            "rejected_any_reason": flagged / max(1, tp + fn)}
    onnx_path = args.onnx or os.path.join(os.path.dirname(args.model), "head-contour.onnx")
    metrics = {
        "eval_set": {"seed": truth["seed"], "images": len(rows), "good": len(good), "bad": len(bad),
                     "note": "rendered images from the Crown renderer (render.py); not real infants"},
        "ci_mae": mae(meas_good, "ci"), "cvai_mae": mae(meas_good, "cvai"),
        "ci_p90_abs_err": pct(meas_good, "ci", 90), "cvai_p90_abs_err": pct(meas_good, "cvai", 90),
        "ci_mae_accepted": mae(acc_good, "ci"), "cvai_mae_accepted": mae(acc_good, "cvai"),
        "measured_good": len(meas_good),
        "good_accepted": len([r for r in good if not r["pred_reasons"]]) / max(1, len(good)),
        "bad_rejected": len([r for r in bad if r["pred_reasons"]]) / max(1, len(bad)),
        "per_reason": per_reason,
        "mask_iou_good_mean": float(np.mean([r["iou"] for r in good if "iou" in r])) if good else None,
        "nose_found_good": len([r for r in good if "nose_err_px" in r]) / max(1, len(good)),
        "nose_err_rel_median": float(np.median([r["nose_err_rel"] for r in good if "nose_err_rel" in r])) if good else None,
        "sticker_diam_rel_err_median_abs": float(np.median([abs(r["sticker_diam_rel_err"]) for r in rows if "sticker_diam_rel_err" in r]))
        if any("sticker_diam_rel_err" in r for r in rows) else None,
        "model_bytes": os.path.getsize(onnx_path) if os.path.exists(onnx_path) else None,
        "eval_seconds": round(dt, 1),
        "close_up_views": args.views,
        "goals": {"ci_mae_max": 1.0, "cvai_mae_max": 1.0, "good_accepted_min": 0.95, "reason_recall_min": 0.9},
    }
    # by shape kind
    kinds = {}
    for r in meas_good:
        kinds.setdefault(r["kind"], []).append(r)
    metrics["by_kind"] = {k: {"n": len(v), "ci_mae": mae(v, "ci"), "cvai_mae": mae(v, "cvai")} for k, v in kinds.items()}
    metrics["goals_met"] = {
        "ci_mae": metrics["ci_mae"] is not None and metrics["ci_mae"] <= 1.0,
        "cvai_mae": metrics["cvai_mae"] is not None and metrics["cvai_mae"] <= 1.0,
        "good_accepted": metrics["good_accepted"] >= 0.95,
        "reason_recall": all(v["recall"] >= 0.9 for v in per_reason.values()),
    }
    with open(args.out, "w") as f:
        json.dump(metrics, f, indent=1)
    with open(args.out.replace(".json", "-rows.json"), "w") as f:
        json.dump(rows, f)
    print(json.dumps({k: v for k, v in metrics.items() if k not in ("per_reason", "by_kind")}, indent=1))
    for k, v in per_reason.items():
        print(f"  {k[:60]:60s} n={v['n']:4d} recall={v['recall']:.3f} precision={v['precision']:.3f}")


if __name__ == "__main__":
    main()
