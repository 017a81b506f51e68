"""Two map branches mixed in weight space: (1 - a) x A + a x B (models/head-contour/lab/0132).

    soup.py A.pt B.pt ALPHA OUT_DIR [--head-from SHIPPED.onnx]

A, B: map weights of one width, either a state dict (onnx_init.py's output, fit_quality.py's MAPS) or a
train.py checkpoint (its "model"). B may name several files, comma-separated: their folded weights are
averaged first (a uniform "model soup" of runs fine-tuned from one start), and that average is B.
Before mixing, each convolution's BatchNorm is folded into it, so both are in the form the ONNX
export computes (a state dict's running statistics and scale are not
comparable between two runs that recalibrated differently; the folded functions are). The mix is
written back as onnx_init.py writes the shipped maps: each BatchNorm only adds the folded bias, exact
in evaluation mode, where fit_quality.py keeps the maps. B's own stage-1 quality head (qv 1), if it has
one, rides along so the bench can run OUT_DIR's ONNX; its acceptance is a rough guide only. With
--head-from, the ONNX instead carries that file's fitted quality head (qv 4) unchanged on the mixed maps.

Writes OUT_DIR/maps.pt (for fit_quality.py), OUT_DIR/head-contour.onnx and OUT_DIR/model.json (the
shipped card, version marked, sha256 cleared) for tests/bench with CROWN_MODEL.
"""
import json
import os

import torch

from onnx_init import load_shipped, trunk_pairs, widths_of, write_folded
from train import HeadContourNet, export_onnx


def map_weights(path):
    """A map state dict from a state-dict file or a train.py checkpoint."""
    obj = torch.load(path)
    return obj["model"] if isinstance(obj, dict) and "model" in obj and isinstance(obj["model"], dict) else obj


def folded(net):
    """[(weight, bias)] of every conv of the map branch with its BatchNorm folded in, then the map logits'."""
    out = []
    with torch.no_grad():
        for conv, bn in trunk_pairs(net):
            scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
            bias = bn.bias - bn.running_mean * scale
            if conv.bias is not None:
                bias = bias + conv.bias * scale
            out.append((conv.weight * scale[:, None, None, None], bias))
        out.append((net.maps.weight.clone(), net.maps.bias.clone()))
    return out


def soup(sd_a, sd_b, alpha):
    """A qv-1 network whose map branch is (1 - alpha) x A + alpha x B, folded; B's qv-1 head if it has one.
    sd_b may be a list of state dicts: B is then their folded average (its head the first one's)."""
    bs = sd_b if isinstance(sd_b, list) else [sd_b]
    for sd in bs:
        if widths_of(sd_a) != widths_of(sd):
            raise SystemExit(f"widths differ: {widths_of(sd_a)} against {widths_of(sd)}")
    nets = []
    for sd in [sd_a, *bs]:
        net = HeadContourNet(ch=widths_of(sd), qv=1)
        own = net.state_dict()
        net.load_state_dict({k: v for k, v in sd.items() if k in own and own[k].shape == v.shape}, strict=False)
        nets.append(net.eval())
    out = HeadContourNet(ch=widths_of(sd_a), qv=1)
    head, own_head = {k[len("quality."):]: v for k, v in bs[0].items() if k.startswith("quality.")}, out.quality.state_dict()
    if head.keys() == own_head.keys() and all(head[k].shape == own_head[k].shape for k in head):
        out.quality.load_state_dict(head)
    with torch.no_grad():
        parts = [folded(net) for net in nets]
        share = alpha / len(bs)
        mixed = [tuple((1 - alpha) * a + share * sum(p[i][j] for p in parts[1:]) for j, a in enumerate(pair))
                 for i, pair in enumerate(parts[0])]
        for (conv, bn), (w, b) in zip(trunk_pairs(out), mixed[:-1]):
            write_folded(conv, bn, w, b)
        out.maps.weight.copy_(mixed[-1][0])
        out.maps.bias.copy_(mixed[-1][1])
    return out.eval()


def with_fitted_head(maps_net, onnx_path):
    """A qv-4 network: onnx_path's fitted quality head (and its feature scaling) on maps_net's map branch."""
    full = load_shipped(HeadContourNet(ch=widths_of(maps_net.state_dict()), qv=4), onnx_path)
    own = full.state_dict()
    full.load_state_dict({k: v for k, v in maps_net.state_dict().items()
                          if k in own and not k.startswith(("quality", "qconv", "q_"))}, strict=False)
    return full.eval()


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="(1 - a) x A + a x B, map branches mixed in weight space (models/head-contour/lab/0132)")
    ap.add_argument("a_path", metavar="A.pt")
    ap.add_argument("b_path", metavar="B.pt[,B2.pt...]")
    ap.add_argument("alpha", metavar="ALPHA", type=float)
    ap.add_argument("out_dir", metavar="OUT_DIR")
    ap.add_argument("--head-from", metavar="SHIPPED.onnx", help="carry this file's fitted quality head (qv 4) on the mixed maps")
    args = ap.parse_args()
    if not 0.0 <= args.alpha <= 1.0:
        ap.error("ALPHA must be within 0..1")
    torch.set_num_threads(1)
    net = soup(map_weights(args.a_path), [map_weights(p) for p in args.b_path.split(",")], args.alpha)
    os.makedirs(args.out_dir, exist_ok=True)
    torch.save(net.state_dict(), os.path.join(args.out_dir, "maps.pt"))
    export_onnx(with_fitted_head(net, args.head_from) if args.head_from else net, os.path.join(args.out_dir, "head-contour.onnx"))
    card = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "model.json")))
    card.update(version=f"soup-{args.alpha:g}" + ("-fitted-head" if args.head_from else ""), sha256=None)
    json.dump(card, open(os.path.join(args.out_dir, "model.json"), "w"), indent=1)
    print(f"{args.out_dir}: (1 - {args.alpha:g}) x {args.a_path} + {args.alpha:g} x {args.b_path}")
