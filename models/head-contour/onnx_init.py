"""Start a HeadContourNet from a shipped model's ONNX file (fine-tuning; only the ONNX is committed).

The export folded each BatchNorm into the convolution before it (conv weight scaled, a bias added), so
the file holds one weight and one bias per convolution, in the network's order. They go back into the
convolutions, and each BatchNorm is first set to add the folded bias and nothing else (then the network
computes exactly what the ONNX file does), and is then recalibrated on real views: running mean and
variance set to the statistics of its input there, and its scale and shift to undo them. In evaluation
mode it is still the same function; in training mode, normalising by a batch's own statistics now gives
about the same output instead of a different network.
"""
import torch
import torch.nn as nn

from onnx_weights import initializers


# The map branch's levels, in the order the export wrote their convolutions.
TRUNK_LEVELS = ("stem", "e2", "e3", "e4", "e5", "d4", "d3", "d2", "d1")


def widths_of(state_dict):
    """A map branch's widths (C1..C5) from its weights: each encoder level's first convolution's outputs."""
    return tuple(state_dict[f"{level}.0.weight"].shape[0] for level in TRUNK_LEVELS[:5])


def trunk_pairs(model):
    """(conv, batchnorm) pairs of the map branch, in the order the export wrote them."""
    pairs = []
    for name in TRUNK_LEVELS:
        mods = list(getattr(model, name).modules())
        convs = [m for m in mods if isinstance(m, nn.Conv2d)]
        bns = [m for m in mods if isinstance(m, nn.BatchNorm2d)]
        pairs += list(zip(convs, bns))
    return pairs


def write_folded(conv, bn, weight, bias):
    """A convolution and its BatchNorm set to compute conv(weight) + bias, as an export with the BatchNorm
    folded in does (exact in evaluation mode): the BatchNorm only adds the bias."""
    conv.weight.copy_(weight)
    bn.weight.fill_(1.0)
    bn.bias.copy_(bias)
    bn.running_mean.zero_()
    bn.running_var.fill_(1.0 - bn.eps)


def load_shipped(model, onnx_path):
    """The whole shipped model (qv=4: map branch and quality head) as the file computes it, batch norms
    unfolded to "add the folded bias" (exact in evaluation mode; for quantising or measuring, not training)."""
    w = initializers(onnx_path)
    load_shipped_maps(model, onnx_path)
    folded = sorted(((k, v) for k, v in w.items() if k.startswith("onnx::Conv_")), key=lambda kv: int(kv[0].split("_")[-1]))
    pairs = []
    for block in model.qconv:
        mods = list(block.modules())
        pairs += list(zip([m for m in mods if isinstance(m, nn.Conv2d)], [m for m in mods if isinstance(m, nn.BatchNorm2d)]))
    start = 2 * len(trunk_pairs(model))
    with torch.no_grad():
        for i, (conv, bn) in enumerate(pairs):
            wv, bv = folded[start + 2 * i][1], folded[start + 2 * i + 1][1]
            assert tuple(conv.weight.shape) == wv.shape
            write_folded(conv, bn, torch.from_numpy(wv), torch.from_numpy(bv))
        for k in ("q_mean", "q_std", "quality.0.weight", "quality.0.bias", "quality.3.weight", "quality.3.bias"):
            model.state_dict()[k].copy_(torch.from_numpy(w[k]))
    return model.eval()


def load_shipped_maps(model, onnx_path, views=None):
    """Copy the map branch (encoder, decoder, map logits) from onnx_path; views: (N,3,160,160) in [0,1]
    to recalibrate the batch norms on (None: left as the file computes them, exact in evaluation mode)."""
    w = initializers(onnx_path)
    folded = [(k, v) for k, v in w.items() if k.startswith("onnx::Conv_")]
    folded.sort(key=lambda kv: int(kv[0].split("_")[-1]))
    pairs = trunk_pairs(model)
    with torch.no_grad():
        for i, (conv, bn) in enumerate(pairs):
            (wk, wv), (bk, bv) = folded[2 * i], folded[2 * i + 1]
            assert tuple(conv.weight.shape) == wv.shape and bv.shape == (conv.out_channels,), (wk, wv.shape, conv.weight.shape)
            write_folded(conv, bn, torch.from_numpy(wv), torch.from_numpy(bv))
        model.maps.weight.copy_(torch.from_numpy(w["maps.weight"]))
        model.maps.bias.copy_(torch.from_numpy(w["maps.bias"]))
        if views is None:
            return model
        # statistics of every BatchNorm's input on the views, with the network as the file computes it
        stats = {}

        def hook(bn):
            def f(_, inp):
                x = inp[0].double()
                s = stats.setdefault(bn, [0, 0.0, 0.0])
                s[0] += x.shape[0] * x.shape[2] * x.shape[3]
                s[1] = s[1] + x.sum((0, 2, 3))
                s[2] = s[2] + (x * x).sum((0, 2, 3))
            return f

        handles = [bn.register_forward_pre_hook(hook(bn)) for _, bn in pairs]
        model.eval()
        for i in range(0, len(views), 24):
            model.trunk(views[i:i + 24])
        for h in handles:
            h.remove()
        for _, bn in pairs:
            n, s1, s2 = stats[bn]
            mu = s1 / n
            var = (s2 / n - mu * mu).clamp(min=1e-8)
            bn.running_mean.copy_(mu.float())
            bn.running_var.copy_(var.float())
            bn.weight.copy_(torch.sqrt(var + bn.eps).float())
            bn.bias.add_(mu.float())
    return model


if __name__ == "__main__":
    # onnx_init.py SHIPPED.onnx OUT.pt: the shipped map branch as a state dict (for fit_quality.py)
    import sys

    from train import HeadContourNet

    net = load_shipped_maps(HeadContourNet(qv=1), sys.argv[1])
    torch.save(net.state_dict(), sys.argv[2])
    print(f"{sys.argv[2]}: the map branch of {sys.argv[1]}")
