"""Write model.json (the manifest of the I/O contract) next to head-contour.onnx.

usage: manifest.py MODEL_DIR [--seed S] [--version V]
"""
import argparse
import hashlib
import json
import os
import time

from render import REASONS


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--version", default=None)
    args = ap.parse_args()
    onnx = os.path.join(args.dir, "head-contour.onnx")
    digest = hashlib.sha256(open(onnx, "rb").read()).hexdigest()
    metrics_path = os.path.join(args.dir, "metrics.json")
    info_path = os.path.join(args.dir, "train-info.json")
    metrics = json.load(open(metrics_path)) if os.path.exists(metrics_path) else {}
    info = json.load(open(info_path)) if os.path.exists(info_path) else {}
    summary = {k: metrics.get(k) for k in ("ci_mae", "cvai_mae", "good_accepted", "bad_rejected", "mask_iou_good_mean")}
    if metrics.get("per_reason"):
        summary["reason_recall"] = {k: round(v["recall"], 3) for k, v in metrics["per_reason"].items()}
        summary["eval_images"] = metrics["eval_set"]["images"]
        summary["eval_seed"] = metrics["eval_set"]["seed"]
        summary["note"] = "measured on rendered images only; no accuracy on real infants has been measured"
    trained_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(os.path.getmtime(onnx)))
    manifest = {
        "input_size": 160,
        "reasons": REASONS,
        "sticker_diameter_mm": 30,
        "nose_sigma_px": 2.5,
        # the server measures a photo on the close-up's four quarter turns, averaged (views.ts)
        "measure_views": metrics.get("close_up_views", 1),
        "version": args.version or f"0.1.0+{digest[:12]}",
        "trained_at": trained_at,
        "seed": args.seed,
        "metrics": summary,
        "inputs": {"image": "float32 [N,3,160,160] RGB in [0,1], letterboxed (aspect kept, centred, padding 0)"},
        "outputs": {
            "mask": "float32 [N,1,160,160] logits, cranial vault (not ears, nose, face, hands, brim)",
            "nose": "float32 [N,1,160,160] logits, nose-tip heatmap (Gaussian sigma 2.5 px), all low when no nose",
            "sticker": "float32 [N,1,160,160] logits, sticker disc, all low when no sticker",
            "quality": "float32 [N,8] logits, independent sigmoids, one per reason in `reasons` order",
        },
        "params": info.get("params"),
        "sha256": digest,
    }
    with open(os.path.join(args.dir, "model.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    print(json.dumps(manifest, indent=2))


if __name__ == "__main__":
    main()
