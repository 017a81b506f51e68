"""Export a training checkpoint (train.py --steps) to ONNX to measure a run while it trains.

    checkpoint_onnx.py CHECKPOINT.pt OUT_DIR

Writes OUT_DIR/head-contour.onnx and OUT_DIR/model.json (the shipped card, version marked as a
checkpoint) so tests/bench/generalisation.bench.ts can run it (CROWN_MODEL=OUT_DIR/head-contour.onnx).
Stage 1's checkpoint has the simple quality head it trains with (qv=1), not yet the fitted one
(fit_quality.py), so its acceptance figures are a rough guide; its outline and nose are final.
"""
import json
import os
import sys

import torch

from train import HeadContourNet, export_onnx, widths

if __name__ == "__main__":
    torch.set_num_threads(1)
    ck = torch.load(sys.argv[1])
    qv = ck["args"].get("qv", 1)
    model = HeadContourNet(ch=widths(ck["args"].get("widen")), qv=qv)
    model.load_state_dict(ck["model"])
    os.makedirs(sys.argv[2], exist_ok=True)
    export_onnx(model, os.path.join(sys.argv[2], "head-contour.onnx"))
    card = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "model.json")))
    card.update(version=f"checkpoint-step-{ck['step']}", sha256=None)
    json.dump(card, open(os.path.join(sys.argv[2], "model.json"), "w"), indent=1)
    print(f"{sys.argv[2]}: step {ck['step']}/{ck['steps']}, {ck['trained_seconds'] / 60:.1f} min trained, qv={qv}")
