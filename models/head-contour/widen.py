"""Widen a HeadContourNet's map branch without changing what it computes (models/head-contour/lab/0121).

The wide network's first channels at every level get the narrow one's weights; every weight from a
channel the narrow network lacks into one it has is zero, so those new channels cannot change the old
ones, and the map logits (a 1 x 1 convolution whose weights from the new channels are zero too) are the
narrow network's exactly. The new channels keep the module's own random initialisation: their weights
into the old channels start at zero but get a gradient at once, so training can put them to use.
The quality head is not copied (stage 1 trains its simple head from scratch, as with --init-onnx).
"""
import torch

from onnx_init import TRUNK_LEVELS, trunk_pairs, widths_of


def _inputs(ch):
    """Each trunk convolution's input as (level sizes) in order, for widths ch = (c1..c5); the
    decoder's first convolution reads the upsampled deeper level, then the skip connection."""
    c1, c2, c3, c4, c5 = ch
    firsts = {"stem": [3], "e2": [c1], "e3": [c2], "e4": [c3], "e5": [c4],
              "d4": [c5, c4], "d3": [c4, c3], "d2": [c3, c2], "d1": [c2, c1]}
    outs = {"stem": c1, "e2": c2, "e3": c3, "e4": c4, "e5": c5, "d4": c4, "d3": c3, "d2": c2, "d1": c1}
    return [s for name in TRUNK_LEVELS for s in (firsts[name], [outs[name]])]


def _old_index(narrow_parts, wide_parts):
    """Where each narrow input channel sits in the wide input (its level's first channels)."""
    index, offset = [], 0
    for n, w in zip(narrow_parts, wide_parts):
        index += range(offset, offset + n)
        offset += w
    return torch.tensor(index)


def widen_maps(wide, narrow):
    """Copy narrow's map branch (convolutions, batch norms, map logits) into wide (see the module doc)."""
    wide_ch, narrow_ch = widths_of(wide.state_dict()), widths_of(narrow.state_dict())
    assert all(w >= n for w, n in zip(wide_ch, narrow_ch)), "every level must be at least as wide"
    pairs_w, pairs_n = trunk_pairs(wide), trunk_pairs(narrow)
    with torch.no_grad():
        for (cw, bw), (cn, bn), parts_n, parts_w in zip(pairs_w, pairs_n, _inputs(narrow_ch), _inputs(wide_ch)):
            o = cn.out_channels
            idx = _old_index(parts_n, parts_w)
            cw.weight[:o].zero_()
            cw.weight[:o, idx] = cn.weight
            for name in ("weight", "bias", "running_mean", "running_var"):
                getattr(bw, name)[:o] = getattr(bn, name)
        wide.maps.weight.zero_()
        wide.maps.weight[:, : narrow_ch[0]] = narrow.maps.weight
        wide.maps.bias.copy_(narrow.maps.bias)
    return wide
