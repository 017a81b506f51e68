"""Train the head-contour model (small U-Net, four heads) and export ONNX.

usage: train.py DATA(dirs,comma-separated) OUT_DIR --minutes M --seed S [--batch 16]
       train.py DATA OUT_DIR --steps N [--session-minutes M] [--resume] [--init-onnx FILE.onnx]
Writes OUT_DIR/head-contour.onnx, OUT_DIR/model.pt and appends to OUT_DIR/training-log.txt.

Two schedules. `--minutes`: warm-up then cosine over a wall-clock budget (0.5.0's recipe; the number of
steps depends on the machine's speed and load). `--steps`: warm-up then cosine over a number of steps,
so a run can stop and go on: OUT_DIR/checkpoint.pt (model, optimiser, step, data order and position,
random generators) is written every `--checkpoint-minutes` and when a session ends (`--session-minutes`
or SIGTERM); `--resume` continues from it. Validation and export happen once, when the last step is done.
"""
import argparse
import json
import math
import os
import random
import signal
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from data import load_shards
from render import REASONS

SIZE = 160
NOSE_SIGMA = 2.5


def conv_block(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


DEFAULT_CH = (16, 24, 40, 56, 72)  # 0.5.0's widths


def widths(spec):
    """--widen's "C1,C2,C3,C4,C5" as a tuple (None: 0.5.0's widths)."""
    if not spec:
        return DEFAULT_CH
    ch = tuple(int(c) for c in str(spec).split(","))
    if len(ch) != 5 or min(ch) < 1:
        raise SystemExit(f"--widen takes five positive widths, got {spec!r}")
    return ch


class HeadContourNet(nn.Module):
    """U-Net-like encoder-decoder. A stride-2 stem works at 80 x 80; the decoder returns to 80 x 80
    and the three map logits are bilinearly upsampled to 160 x 160 (smooth logits give sub-pixel
    iso-lines). The quality head pools the two deepest feature maps."""

    def __init__(self, ch=None, qv=2):
        ch = tuple(ch or DEFAULT_CH)
        super().__init__()
        c1, c2, c3, c4, c5 = ch
        self.qv = qv
        self.stem = nn.Sequential(nn.Conv2d(3, c1, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(c1), nn.ReLU(inplace=True),
                                  nn.Conv2d(c1, c1, 3, padding=1, bias=False), nn.BatchNorm2d(c1), nn.ReLU(inplace=True))
        self.e2 = conv_block(c1, c2)
        self.e3 = conv_block(c2, c3)
        self.e4 = conv_block(c3, c4)
        self.e5 = conv_block(c4, c5)
        self.d4 = conv_block(c5 + c4, c4)
        self.d3 = conv_block(c4 + c3, c3)
        self.d2 = conv_block(c3 + c2, c2)
        self.d1 = conv_block(c2 + c1, c1)
        self.maps = nn.Conv2d(c1, 3, 1)
        if qv == 1:
            self.quality = nn.Sequential(nn.Linear(2 * c5 + 2 * c4, 64), nn.ReLU(inplace=True), nn.Linear(64, 8))
        elif qv == 3:
            # v3: mean and max of every encoder/decoder level + statistics of the predicted maps,
            # standardised, then a small MLP (fitted on frozen features by fit_quality.py)
            nf = 2 * (2 * (c1 + c2 + c3 + c4) + c5) + 6
            self.register_buffer("q_mean", torch.zeros(nf))
            self.register_buffer("q_std", torch.ones(nf))
            self.quality = nn.Sequential(nn.Linear(nf, 128), nn.ReLU(inplace=True), nn.Dropout(0.2), nn.Linear(128, 8))
        elif qv == 4:
            # v4: v3's pooled statistics plus a small conv pyramid over the decoder's maps and the
            # predicted probabilities, so where things are (an ear off the outline, a cheek on one
            # side, a hand across the edge) counts and not only how much of them there is
            nf = 2 * (2 * (c1 + c2 + c3 + c4) + c5) + 6
            self.register_buffer("q_mean", torch.zeros(nf))
            self.register_buffer("q_std", torch.ones(nf))
            cbr = lambda cin, cout, k, s: nn.Sequential(nn.Conv2d(cin, cout, k, stride=s, padding=k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))
            self.qconv = nn.ModuleList([cbr(c2 + 3, 32, 3, 2), cbr(32 + c3, 48, 3, 2), cbr(48 + c4, 64, 3, 2), cbr(64 + c5, 96, 1, 1)])
            self.quality = nn.Sequential(nn.Linear(2 * 96 + nf, 128), nn.ReLU(inplace=True), nn.Dropout(0.2), nn.Linear(128, 8))
        else:
            # v2: also looks at finer features (blur, nose, hair strands) and at the predicted maps
            # (nose peak, sticker peak, how much mask touches the view's border)
            self.qconv = nn.Sequential(nn.Conv2d(c2, 32, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(inplace=True),
                                       nn.Conv2d(32, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU(inplace=True))
            self.quality = nn.Sequential(nn.Linear(2 * c5 + 2 * c4 + 64 + 6, 96), nn.ReLU(inplace=True), nn.Linear(96, 8))

    def trunk(self, x):
        """The map logits (160 x 160) and every encoder/decoder level [x1..x5, y4, y3, y2, y1]."""
        x1 = self.stem(x)  # 80
        x2 = self.e2(F.max_pool2d(x1, 2))  # 40
        x3 = self.e3(F.max_pool2d(x2, 2))  # 20
        x4 = self.e4(F.max_pool2d(x3, 2))  # 10
        x5 = self.e5(F.max_pool2d(x4, 2))  # 5
        up = lambda t: F.interpolate(t, scale_factor=2.0, mode="nearest")
        y4 = self.d4(torch.cat([up(x5), x4], 1))
        y3 = self.d3(torch.cat([up(y4), x3], 1))
        y2 = self.d2(torch.cat([up(y3), x2], 1))
        y1 = self.d1(torch.cat([up(y2), x1], 1))
        m = F.interpolate(self.maps(y1), scale_factor=2.0, mode="bilinear", align_corners=False)
        return m, [x1, x2, x3, x4, x5, y4, y3, y2, y1]

    def forward(self, x):
        m, (x1, x2, x3, x4, x5, y4, y3, y2, y1) = self.trunk(x)
        if self.qv == 3:
            return m[:, 0:1], m[:, 1:2], m[:, 2:3], self.quality((self.quality_features(m, [x1, x2, x3, x4, x5, y4, y3, y2, y1]) - self.q_mean) / self.q_std)
        if self.qv == 4:
            levels = [x1, x2, x3, x4, x5, y4, y3, y2, y1]
            pooled = (self.quality_features(m, levels) - self.q_mean) / self.q_std
            return m[:, 0:1], m[:, 1:2], m[:, 2:3], self.quality_v4(y2, F.avg_pool2d(torch.sigmoid(m), 4), y3, y4, x5, pooled)
        feat = torch.cat([x5.mean((2, 3)), x5.amax((2, 3)), y4.mean((2, 3)), y4.amax((2, 3))], 1)
        if self.qv != 1:
            qf = self.qconv(y2)
            ms = torch.sigmoid(m[:, 0:1])
            border = torch.cat([ms[:, :, :2].flatten(1), ms[:, :, -2:].flatten(1), ms[:, :, :, :2].flatten(1), ms[:, :, :, -2:].flatten(1)], 1)
            stats = torch.stack([m[:, 1].flatten(1).amax(1), m[:, 2].flatten(1).amax(1), ms.flatten(1).mean(1),
                                 border.mean(1) * 10, border.amax(1), torch.sigmoid(m[:, 1]).flatten(1).sum(1) / 20], 1)
            feat = torch.cat([feat, qf.mean((2, 3)), qf.amax((2, 3)), stats], 1)
        q = self.quality(feat)
        return m[:, 0:1], m[:, 1:2], m[:, 2:3], q


def _map_stats(m):
    ms = torch.sigmoid(m[:, 0:1])
    border = torch.cat([ms[:, :, :2].flatten(1), ms[:, :, -2:].flatten(1), ms[:, :, :, :2].flatten(1), ms[:, :, :, -2:].flatten(1)], 1)
    return torch.stack([m[:, 1].flatten(1).amax(1), m[:, 2].flatten(1).amax(1), ms.flatten(1).mean(1),
                        border.mean(1) * 10, border.amax(1), torch.sigmoid(m[:, 1]).flatten(1).sum(1) / 20], 1)


def _quality_features(self, m, levels):
    return torch.cat([t.mean((2, 3)) for t in levels] + [t.amax((2, 3)) for t in levels] + [_map_stats(m)], 1)


def _quality_v4(self, y2, maps40, y3, y4, x5, pooled):
    a = self.qconv[0](torch.cat([y2, maps40], 1))  # 20 x 20
    a = self.qconv[1](torch.cat([a, y3], 1))  # 10 x 10
    a = self.qconv[2](torch.cat([a, y4], 1))  # 5 x 5
    a = self.qconv[3](torch.cat([a, x5], 1))
    return self.quality(torch.cat([a.mean((2, 3)), a.amax((2, 3)), pooled], 1))


HeadContourNet.quality_features = _quality_features
HeadContourNet.quality_v4 = _quality_v4


def nose_heatmap(nose, size=SIZE, sigma=NOSE_SIGMA):
    """nose: (B,2) pixel coords with centres at i+0.5, or -1 for none. Returns (B,1,S,S) peak-1 Gaussians."""
    c = torch.arange(size, dtype=torch.float32) + 0.5
    dx = c[None, None, :] - nose[:, 0, None, None]
    dy = c[None, :, None] - nose[:, 1, None, None]
    h = torch.exp(-(dx ** 2 + dy ** 2) / (2 * sigma ** 2))
    h = h * (nose[:, 0] >= 0).float()[:, None, None]
    return h[:, None]


def augment(img, mask, stk, nose, g):
    """Random 90-degree rotations and flips (square views), colour jitter. Tensors on CPU."""
    B = img.shape[0]
    k = int(torch.randint(0, 4, (1,), generator=g))
    flip = bool(torch.randint(0, 2, (1,), generator=g))
    S = SIZE
    x, y = nose[:, 0].clone(), nose[:, 1].clone()
    has = x >= 0
    if flip:
        img, mask, stk = img.flip(3), mask.flip(3), stk.flip(3)
        x = S - x
    for _ in range(k):  # rot90 counter-clockwise in the (H, W) plane: (x, y) -> (y, S - x)
        img, mask, stk = torch.rot90(img, 1, (2, 3)), torch.rot90(mask, 1, (2, 3)), torch.rot90(stk, 1, (2, 3))
        x, y = y, S - x
    nose = torch.stack([torch.where(has, x, torch.full_like(x, -1.0)), torch.where(has, y, torch.full_like(y, -1.0))], 1)
    gain = 1 + 0.25 * (torch.rand(B, 1, 1, 1, generator=g) - 0.5)
    bias = 0.08 * (torch.rand(B, 1, 1, 1, generator=g) - 0.5)
    chan = 1 + 0.1 * (torch.rand(B, 3, 1, 1, generator=g) - 0.5)
    # keep letterbox padding at exactly 0
    pad = (img.sum(1, keepdim=True) == 0)
    img = ((img * gain * chan + bias).clamp(0, 1)).masked_fill(pad, 0.0)
    return img, mask, stk, nose


def dice_loss(logit, target, eps=1.0):
    p = torch.sigmoid(logit)
    inter = (p * target).sum((1, 2, 3))
    den = p.sum((1, 2, 3)) + target.sum((1, 2, 3))
    return 1 - (2 * inter + eps) / (den + eps)


def losses(out, mask, stk, nose, reasons, frac, nose_hard=0.0, edge_band=0.0):
    m, n, s, q = out
    # The measurement lives on the outline: weight the pixels within ~2 px of the true edge more.
    edge = (F.max_pool2d(mask, 5, 1, 2) + F.max_pool2d(-mask, 5, 1, 2)) > 0.5
    wm = 1 + 3 * edge.float()
    if edge_band:
        # bites into the outline (sparse hair, cloth against the vault, models/head-contour/lab/0101) are wrong pixels a
        # few pixels from the true edge: within ~7 px of it, each pixel's loss counts up to 1 + K more, in
        # proportion to how wrong the map still is there (pixels it already has right are not re-weighted)
        band = (F.max_pool2d(mask, 15, 1, 7) + F.max_pool2d(-mask, 15, 1, 7)) > 0.5
        wrong = (torch.sigmoid(m) - mask).abs().detach()
        wm = wm + edge_band * band.float() * wrong
    l_mask = (F.binary_cross_entropy_with_logits(m, mask, reduction="none") * wm).mean() + dice_loss(m, mask).mean()
    hm = nose_heatmap(nose)
    w = 1 + 40 * hm
    if nose_hard:
        # noses the map still misses (a sliver at the head's edge, models/head-contour/lab/0097) count more: each view's
        # nose loss is weighted by 1 + K (1 - the map's best probability near the true tip)
        per_view = (F.binary_cross_entropy_with_logits(n, hm, reduction="none") * w).mean((1, 2, 3))
        near_tip = (torch.sigmoid(n) * (hm > 0.5).float()).flatten(1).amax(1).detach()
        has = (nose[:, 0] >= 0).float()
        l_nose = (per_view * (1 + nose_hard * has * (1 - near_tip))).mean() * 10
    else:
        l_nose = (F.binary_cross_entropy_with_logits(n, hm, reduction="none") * w).mean() * 10
    has_s = (stk.sum((1, 2, 3)) > 0).float()
    l_stk = F.binary_cross_entropy_with_logits(s, stk) + (dice_loss(s, stk) * has_s).sum() / has_s.sum().clamp(min=1)
    # blur is hard to judge when the head is tiny in the view: down-weight it there
    qw = torch.ones_like(reasons)
    qw[:, 0] = torch.where(frac < 0.45, 0.3, 1.0)
    l_q = (F.binary_cross_entropy_with_logits(q, reasons, reduction="none") * qw).mean() * 2
    return l_mask, l_nose, l_stk, l_q


def away_from_tip(n, nose, frac, radius):
    """The pixels farther than `radius` x the head's size in the view (frac x 160 px, at least 3 sigma of the
    target) from the true tip: where a nose peak is a wrong one (models/head-contour/lab/0106, 0109)."""
    S = n.shape[-1]
    c = torch.arange(S, dtype=n.dtype, device=n.device) + 0.5
    d2 = (c[None, None, :] - nose[:, 0, None, None]) ** 2 + (c[None, :, None] - nose[:, 1, None, None]) ** 2
    r = torch.clamp(radius * frac.to(n.dtype) * S, min=3 * NOSE_SIGMA)
    return d2 > (r ** 2)[:, None, None]


def at_tip(n, nose):
    """The pixels within the target's half-height (hm > 0.5): what `--nose-hard`, the floor and the margin
    read as "at the tip"."""
    return nose_heatmap(nose.to(n.dtype))[:, 0] > 0.5


def nose_false_peak_loss(n, nose, frac, eligible, radius=0.08, thresh=0.3, k=8):
    """Confident false nose peaks (models/head-contour/lab/0106), one term per view rather than per pixel: on each eligible
    view, the k highest nose probabilities among the pixels farther than `radius` x the head's size (frac x
    160 px, at least 3 sigma of the target) from the true tip, or anywhere when the view has no visible
    nose, each above `thresh` costing -log(1 - p) (BCE towards 0; 0 at or below thresh), averaged over
    the k. So one wrong peak weighs a view's O(1), where the per-pixel nose BCE gives its few pixels a
    few 1/25,600ths. Returns the mean over the batch (views not eligible count 0)."""
    has = nose[:, 0] >= 0
    away = away_from_tip(n, nose, frac, radius) | ~has[:, None, None]
    # pixels near the tip can never be picked: their logits are pushed to -inf before the top-k
    z = n[:, 0].masked_fill(~away, float("-inf")).flatten(1)
    top = z.topk(k, dim=1).values
    p = torch.sigmoid(top)
    over = (top > math.log(thresh / (1 - thresh))).to(n.dtype)
    per_view = (F.softplus(top) * over).sum(1) / k  # softplus(z) = -log(1 - sigmoid(z))
    return (per_view * eligible.to(n.dtype)).mean(), (p.amax(1) > thresh) & eligible


def nose_false_eligible(untaught, nose, skip_none=False, painted=None):
    """The views the false-peak term counts on: those the teacher does not cover (models/head-contour/lab/0106), with
    skip_none only those whose truth has a visible nose (models/head-contour/lab/0108), and with `painted` (a mask of the
    views `--paint` painted this step; models/head-contour/lab/0117) only those, so the term is aimed at the painted 0.6v
    views and unpainted views' nose maps are left to the other losses. No random draw."""
    elig = untaught
    if skip_none:
        elig = elig & (nose[:, 0] >= 0)
    if painted is not None:
        elig = elig & painted
    return elig


def nose_tip_floor_loss(n, nose, eligible, floor=0.6):
    """A floor under the true tip's peak (models/head-contour/lab/0108), the false-peak term's counterpart from below: on
    each eligible view with a visible nose, the highest nose probability within the target's half-height
    (hm > 0.5, the pixels `--nose-hard` reads as "near the tip"), when below `floor`, costs -log(p) (BCE
    towards 1; 0 at or above floor). One pixel per view, so a map that lowers its whole nose scale pays
    here what it saves on the false peaks. Returns the mean over the batch (views not eligible or without a
    visible nose count 0) and which views were below the floor."""
    has = nose[:, 0] >= 0
    near = at_tip(n, nose)
    z = n[:, 0].masked_fill(~near, float("-inf")).flatten(1).amax(1)
    ok = has & eligible
    z = torch.where(ok, z, torch.zeros_like(z))  # no tip: a finite stand-in, masked out below
    low = (z < math.log(floor / (1 - floor))) & ok
    per_view = F.softplus(-z) * low.to(n.dtype)  # softplus(-z) = -log(sigmoid(z))
    return per_view.mean(), low


def nose_margin_loss(n, nose, frac, eligible, margin=2.0, radius=0.08):
    """A margin between the true tip's peak and the best peak away from it (models/head-contour/lab/0109): on each eligible
    view with a visible nose, d = (the highest nose logit within the target's half-height, hm > 0.5, the
    pixels `--nose-hard` and the floor read as "at the tip") - (the highest nose logit farther than
    `radius` x the head's size from the tip, at least 3 sigma: `nose_false_peak_loss`'s away region); the
    view costs max(0, margin - d), a hinge in logits. Adding a constant to every logit leaves d, and so the
    term, unchanged: lowering (or raising) the whole map is no way out; only the tip against the away peak
    counts, one pixel each, pulled with equal and opposite force. Returns the mean over the batch (views
    not eligible or without a visible nose count 0) and which views were short of the margin."""
    has = nose[:, 0] >= 0
    away = away_from_tip(n, nose, frac, radius)
    near = at_tip(n, nose)
    z = n[:, 0]
    tip = z.masked_fill(~near, float("-inf")).flatten(1).amax(1)
    far = z.masked_fill(~away, float("-inf")).flatten(1).amax(1)
    ok = has & eligible
    gap = torch.where(ok, tip - far, torch.zeros_like(tip))  # no tip: a finite stand-in, masked out below
    short = (gap < margin) & ok
    per_view = F.relu(margin - gap) * short.to(n.dtype)
    return per_view.mean(), short


def paint_surface(x, mask, stk, nose, eligible, g, p=0.5, min_cells=3, max_cells=28, spill=0):
    """Patterns painted on the head's surface (models/head-contour/lab/0110): on each eligible view, with probability p, a
    blotch pattern (uniform noise on a coarse grid of 3-28 cells a side, bilinearly enlarged to the view and
    cut at a random quantile so that 10-60 % of the pixels are in it: a few large blotches down to many small
    spots) in one random colour (shaded as the surface under it) at a random opacity (0.5-1), painted only on pixels inside the true head
    mask (> 0.5), off the sticker and farther than ~7.5 px (3 sigma) from the true nose tip. The truth does
    not change: the outline, the nose and the sticker stay where they were, so the mask has to be filled
    whatever the vault's surface looks like. Every random draw comes from `g` (a generator of its own),
    never from the global one or the training's. Returns the new views (a copy) and which were painted.
    spill > 0 (models/head-contour/lab/0111): the pattern runs on up to `spill` px past the true outline onto the
    surroundings (a disc dilation of the head mask; the truth still unchanged), so a patterned surface is
    not "head" by itself; the same draws, the shading still against the head's own mean brightness."""
    B, _, S, _ = x.shape
    u = torch.rand(B, 4, generator=g)  # apply?, coverage, opacity, cell count
    cells = torch.randint(min_cells, max_cells + 1, (B,), generator=g)
    colour = torch.rand(B, 3, generator=g)
    painted = (u[:, 0] < p) & eligible
    out = x.clone()
    far = nose_heatmap(nose.to(x.dtype))[:, 0] < math.exp(-4.5)  # beyond 3 sigma of the true tip (or no nose)
    region = (mask[:, 0] > 0.5) & (stk[:, 0] <= 0.5) & far
    head = region
    if spill > 0:
        r = int(spill)
        yy, xx = torch.meshgrid(torch.arange(-r, r + 1), torch.arange(-r, r + 1), indexing="ij")
        disc = ((xx ** 2 + yy ** 2) <= spill ** 2).to(x.dtype)[None, None]
        grown = F.conv2d((mask > 0.5).to(x.dtype), disc, padding=r)[:, 0] > 0.5
        region = grown & (stk[:, 0] <= 0.5) & far
    for i in range(B):
        c = int(cells[i])
        noise = torch.rand(1, 1, c, c, generator=g)
        if not painted[i]:
            continue
        up = F.interpolate(noise, size=(S, S), mode="bilinear", align_corners=False)[0, 0]
        cover = 0.1 + 0.5 * u[i, 1]
        blot = (up > torch.quantile(up.flatten(), 1 - float(cover))) & region[i]
        a = (0.5 + 0.5 * u[i, 2]) * blot.to(x.dtype)
        # the paint keeps the surface's shading: its colour x the view's brightness there / the head's mean
        lum = x[i].mean(0)
        lum = lum / lum[head[i]].mean().clamp(min=1e-3) if head[i].any() else torch.ones_like(lum)
        out[i] = x[i] * (1 - a) + (colour[i][:, None, None] * lum).clamp(0, 1) * a
    return out, painted


RANDCONV_KERNELS = (1, 3, 5, 7)


def random_convolution(x, g, p=0.5, kernels=RANDCONV_KERNELS):
    """Random convolutions (models/head-contour/lab/0115; the idea of Xu et al., ICLR 2021): on each view, with probability
    p, the view is replaced by a * view + (1 - a) * rc(view), a ~ U(0, 1), rc a freshly drawn 3 -> 3
    convolution without bias, its kernel size drawn from `kernels`, its weights ~ N(0, 1 / (3 k^2)), 'same'
    (zero) padding; the result is then rescaled to [0, 1] by its own minimum and maximum over the view's
    pixels that are not letterbox padding (all three channels together), and the padding (pixels exactly 0
    in all channels of the input) is kept at exactly 0. Local texture and colour change, shapes stay where
    they were; the truth is not touched. Every random draw comes from `g`, the same number per view whether
    it is convolved or not (one apply draw, one mix weight, one kernel size, the kernel's weights), never
    from the global generator or the training's. A view whose mix is constant (nothing to rescale) is left
    as it was. Returns the new views (a copy) and which were convolved."""
    B = x.shape[0]
    u = torch.rand(B, 2, generator=g)  # apply?, mix weight a
    ks = torch.randint(0, len(kernels), (B,), generator=g)
    pad = x.sum(1) == 0  # (B, S, S) the letterbox
    out = x.clone()
    done = torch.zeros(B, dtype=torch.bool)
    for i in range(B):
        k = int(kernels[int(ks[i])])
        w = torch.randn(3, 3, k, k, generator=g, dtype=x.dtype) / math.sqrt(3 * k * k)
        if not u[i, 0] < p:
            continue
        a = u[i, 1].to(x.dtype)
        y = a * x[i] + (1 - a) * F.conv2d(x[i:i + 1], w, padding=k // 2)[0]
        inside = ~pad[i]
        if not inside.any():
            continue
        v = y[:, inside]
        lo, hi = v.min(), v.max()
        if not hi - lo > 1e-6:
            continue
        out[i] = ((y - lo) / (hi - lo)).clamp(0, 1).masked_fill(pad[i][None], 0.0)
        done[i] = True
    return out, done


def running(mean, value):
    """The logged running mean of a term: the first value, then 0.98 of the old mean and 0.02 of the new."""
    return value if mean is None else 0.98 * mean + 0.02 * value


def distill_terms(out, teacher_logits):
    """How far the student's three maps are from a teacher's on the same views (models/head-contour/lab/0104), map by map:
    per pixel BCE against the teacher's probability minus the teacher's own entropy (0 when the logits
    agree), weighted as the truth losses weight their maps: the mask on the teacher's outline, the nose
    near the teacher's peak (x 10). Returns (mask, nose, sticker)."""
    def kl(logit, t_logit):
        p = torch.sigmoid(t_logit)
        return (F.binary_cross_entropy_with_logits(logit, p, reduction="none")
                - F.binary_cross_entropy_with_logits(t_logit, p, reduction="none"))
    tm = torch.sigmoid(teacher_logits[:, 0:1])
    edge = (F.max_pool2d(tm, 5, 1, 2) + F.max_pool2d(-tm, 5, 1, 2)) > 0.5
    l_mask = (kl(out[0], teacher_logits[:, 0:1]) * (1 + 3 * edge.float())).mean()
    l_nose = (kl(out[1], teacher_logits[:, 1:2]) * (1 + 40 * torch.sigmoid(teacher_logits[:, 1:2]))).mean() * 10
    l_stk = kl(out[2], teacher_logits[:, 2:3]).mean()
    return l_mask, l_nose, l_stk


def distill_sum(terms, nose_weight=1.0):
    """The teacher term from distill_terms' parts: mask + nose_weight x nose + half the sticker."""
    l_mask, l_nose, l_stk = terms
    return l_mask + nose_weight * l_nose + 0.5 * l_stk


def distill_loss(out, teacher_logits, nose_weight=1.0):
    """The teacher term: mask + nose_weight x nose + half the sticker (distill_terms). nose_weight > 1 holds
    the nose map closer to the teacher's than the other maps (models/head-contour/lab/0111); 1 is ADR 104's term."""
    return distill_sum(distill_terms(out, teacher_logits), nose_weight)


def export_onnx(model, path):
    model.eval()
    dummy = torch.zeros(1, 3, SIZE, SIZE)
    torch.onnx.export(model, dummy, path, input_names=["image"], output_names=["mask", "nose", "sticker", "quality"],
                      dynamic_axes={"image": {0: "N"}, "mask": {0: "N"}, "nose": {0: "N"}, "sticker": {0: "N"}, "quality": {0: "N"}},
                      opset_version=17, do_constant_folding=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--minutes", type=float, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--qv", type=int, default=2)
    ap.add_argument("--freeze_maps", action="store_true")
    ap.add_argument("--qweight", type=float, default=0.5)
    ap.add_argument("--init", default=None, help="optional state dict to start from (fine-tuning)")
    ap.add_argument("--init-onnx", default=None, help="start from a shipped model's ONNX weights (onnx_init.py)")
    ap.add_argument("--widen", default=None,
                    help="C1,C2,C3,C4,C5: a wider map branch; with --init-onnx it starts as the shipped maps exactly (widen.py, models/head-contour/lab/0121)")
    ap.add_argument("--steps", type=int, default=0, help="step-based, resumable schedule of this many steps (0: --minutes)")
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--session-minutes", type=float, default=0, help="with --steps: stop this session (checkpoint kept) after M minutes")
    ap.add_argument("--checkpoint-minutes", type=float, default=5)
    ap.add_argument("--resume", action="store_true", help="with --steps: continue from OUT/checkpoint.pt if it exists")
    ap.add_argument("--nose-hard", type=float, default=0.0, help="weight missed noses' loss up to 1 + K (0: 0.5.0's loss)")
    ap.add_argument("--edge-band", type=float, default=0.0, help="weight wrong mask pixels within ~7 px of the outline up to 1 + K more (0: 0.5.0's loss)")
    ap.add_argument("--distill", default=None, help="teacher ONNX: hold the maps of --distill-data's views close to its maps (models/head-contour/lab/0104)")
    ap.add_argument("--distill-data", default="", help="comma-separated entries of DATA whose views get the teacher term")
    ap.add_argument("--distill-weight", type=float, default=1.0)
    ap.add_argument("--distill-nose", type=float, default=1.0,
                    help="weight of the nose map in the teacher term, relative to the other maps (models/head-contour/lab/0111; 1: ADR 104's term)")
    ap.add_argument("--nose-false", type=float, default=0.0,
                    help="weight of the false-peak term on the nose map (models/head-contour/lab/0106; 0: off, the old loss); off on --distill-data's views")
    ap.add_argument("--nose-false-radius", type=float, default=0.08, help="the false-peak term's radius around the true tip, x the head's size")
    ap.add_argument("--nose-false-skip-none", action="store_true",
                    help="the false-peak term only on views whose truth has a visible nose (models/head-contour/lab/0108)")
    ap.add_argument("--nose-false-painted-only", action="store_true",
                    help="with --paint: the false-peak term only on the views painted this step (models/head-contour/lab/0117)")
    ap.add_argument("--nose-floor", type=float, default=0.0,
                    help="weight of a floor under the true tip's peak, on every view with a visible nose (models/head-contour/lab/0108; 0: off)")
    ap.add_argument("--nose-floor-p", type=float, default=0.6, help="the floor: a tip peak below this probability costs -log(p)")
    ap.add_argument("--nose-margin", type=float, default=0.0,
                    help="weight of a hinge on the gap between the true tip's best nose logit and the best one away from it (0: off; models/head-contour/lab/0109)")
    ap.add_argument("--nose-margin-m", type=float, default=2.0, help="the margin in logits: a gap below M costs M - gap")
    ap.add_argument("--paint", type=float, default=0.0,
                    help="share of the non-distilled views given a blotch pattern painted on the head's surface (models/head-contour/lab/0110; 0: off)")
    ap.add_argument("--paint-spill", type=float, default=0.0,
                    help="with --paint: the pattern runs on this many px past the true outline, the truth unchanged (models/head-contour/lab/0111; 0: on the head only)")
    ap.add_argument("--randconv", type=float, default=0.0,
                    help="share of the training views (all, the teacher's too) given a random convolution mixed with the view; the teacher sees the original (models/head-contour/lab/0115; 0: off)")
    args = ap.parse_args()
    if args.nose_false_painted_only and not (args.nose_false and args.paint):
        ap.error("--nose-false-painted-only needs --nose-false and --paint")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    random.seed(args.seed)
    g = torch.Generator().manual_seed(args.seed)
    # --paint draws from a generator of its own, so the data order and the other draws stay the same
    g_paint = torch.Generator().manual_seed(args.seed + 110_000) if args.paint else None
    # --randconv too (models/head-contour/lab/0115): off, no generator and no draw at all
    g_rc = torch.Generator().manual_seed(args.seed + 115_000) if args.randconv else None
    os.makedirs(args.out, exist_ok=True)
    log_path = os.path.join(args.out, "training-log.txt")
    logf = open(log_path, "a")

    def log(msg):
        line = f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} {msg}"
        print(line, flush=True)
        logf.write(line + "\n")
        logf.flush()

    # which entries of DATA are distilled (by position; a directory listed twice counts in both places)
    entries = [os.path.normpath(e) for e in args.data.split(",")]
    wanted = {os.path.normpath(e) for e in args.distill_data.split(",") if e}
    if args.distill and not wanted & set(entries):
        raise SystemExit(f"--distill-data {args.distill_data!r} names none of DATA's entries")
    distilled = torch.tensor([e in wanted for e in entries]) if args.distill else None
    while True:
        d, n_files = load_shards(args.data, with_source=True)
        if d is not None:
            break
        time.sleep(20)
    T = {}

    def set_data(d):
        T["img"] = torch.from_numpy(d["img"])  # N,S,S,3 uint8
        T["mask"] = torch.from_numpy(d["mask"])
        T["stk"] = torch.from_numpy(d["sticker"])
        T["nose"] = torch.from_numpy(d["nose"])
        T["reasons"] = torch.from_numpy(d["reasons"]).float()
        T["frac"] = torch.from_numpy(d["frac"]).float()
        T["scene"] = torch.from_numpy(d["scene"])
        T["distil"] = distilled[torch.from_numpy(d["source"]).long()] if distilled is not None else None
        return T["img"].shape[0]

    N = set_data(d)
    # validation: the views of the first shard's last 30 scenes (never trained on)
    val_scenes = set(np.unique(d["scene"])[-30:].tolist())
    is_val = torch.tensor([int(s) in val_scenes for s in d["scene"]])
    val_idx = torch.nonzero(is_val)[:, 0]
    tr_idx = torch.nonzero(~is_val)[:, 0]
    n_val = len(val_idx)
    model = HeadContourNet(ch=widths(args.widen), qv=args.qv)
    if args.init:
        own = model.state_dict()
        loaded = torch.load(args.init)
        loaded = loaded.get("model", loaded) if "opt" in loaded else loaded  # a train.py checkpoint: its model
        sd = {k: v for k, v in loaded.items() if k in own and own[k].shape == v.shape}
        missing, unexpected = model.load_state_dict(sd, strict=False)
        log(f"init from {args.init}: new {len(missing)} tensors, dropped {len(unexpected)}")
        if args.freeze_maps:
            # fine-tune: keep the map branch, train the quality head (and BN stats stay fixed)
            for n_, p_ in model.named_parameters():
                if not (n_.startswith("quality") or n_.startswith("qconv")):
                    p_.requires_grad_(False)
    resuming = bool(args.steps and args.resume and os.path.exists(os.path.join(args.out, "checkpoint.pt")))
    if args.init_onnx and not resuming:  # a resumed run takes its weights from the checkpoint
        from onnx_init import load_shipped_maps
        views = torch.from_numpy(d["img"][tr_idx[:240].numpy()]).permute(0, 3, 1, 2).float() / 255
        if args.widen:
            from widen import widen_maps
            narrow = load_shipped_maps(HeadContourNet(qv=1), args.init_onnx, views)
            widen_maps(model, narrow)
            log(f"init from {args.init_onnx}: the map branch's weights widened from {list(DEFAULT_CH)} to {list(widths(args.widen))} "
                "(the same maps), batch norms recalibrated on 240 training views")
        else:
            load_shipped_maps(model, args.init_onnx, views)
            log(f"init from {args.init_onnx}: the map branch's weights, batch norms recalibrated on 240 training views")
    teacher = None
    if args.distill:
        from onnx_init import load_shipped_maps
        # as the file computes it: batch norms left as folded (exact in evaluation mode), never trained
        teacher = load_shipped_maps(HeadContourNet(qv=1), args.distill).eval()
        for p_ in teacher.parameters():
            p_.requires_grad_(False)
        log(f"distill: maps of {args.distill} on the views of {sorted(wanted)} ({int(T['distil'].sum())} of {N}), weight {args.distill_weight}"
            + (f", nose map x {args.distill_nose}" if args.distill_nose != 1 else ""))
    if args.nose_false_painted_only:
        log("nose-false: on the views --paint painted this step only (models/head-contour/lab/0117)")
    if args.randconv:
        log(f"randconv: p {args.randconv} per view, kernels {list(RANDCONV_KERNELS)}, generator seed {args.seed + 115_000}; the teacher sees the original views")
    n_params = sum(p.numel() for p in model.parameters())
    log(f"start: data={args.data} samples={N} (val {n_val}) params={n_params} seed={args.seed} batch={args.batch} "
        + (f"steps={args.steps} " if args.steps else f"budget={args.minutes}min ") + f"lr={args.lr}")
    opt = torch.optim.AdamW([p_ for p_ in model.parameters() if p_.requires_grad], lr=args.lr, weight_decay=1e-4)

    def batch(ix, aug):
        x = T["img"][ix].permute(0, 3, 1, 2).float() / 255
        m = T["mask"][ix][:, None].float() / 255
        s = T["stk"][ix][:, None].float() / 255
        n = T["nose"][ix].clone()
        if aug:
            x, m, s, n = augment(x, m, s, n, g)
        return x, m, s, n, T["reasons"][ix], T["frac"][ix]

    # 0.5.0's schedule: warm-up then cosine on the elapsed fraction of a wall-clock budget; with --steps
    # the same shape on the fraction of steps done, which does not depend on the machine or its load
    budget = args.minutes * 60
    t0 = time.time()
    step = 0
    ptr = 0
    order = tr_idx[torch.randperm(len(tr_idx), generator=g)]
    run = None
    run_d = None  # running mean of the teacher term (--distill)
    run_dn = None  # of its nose part, with --distill-nose other than 1
    run_f = None  # running means of the false-peak term and of the share of its views with a false peak (--nose-false)
    run_t = None  # running means of the tip-floor term and of the share of views below the floor (--nose-floor)
    run_m = None  # running means of the margin term and of the share of its views short of the margin (--nose-margin)
    run_p = None  # running share of the batch's views painted (--paint)
    run_rc = None  # running share of the batch's views convolved (--randconv)
    done_before = 0.0  # seconds trained in earlier sessions
    ckpt_path = os.path.join(args.out, "checkpoint.pt")
    if args.steps and args.resume and os.path.exists(ckpt_path):
        ck = torch.load(ckpt_path)
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        step, ptr, order, run, done_before = ck["step"], ck["ptr"], ck["order"], ck["run"], ck["trained_seconds"]
        run_d = ck.get("run_distill")
        run_f = ck.get("run_false")
        run_t = ck.get("run_floor")
        run_m = ck.get("run_margin")
        run_dn = ck.get("run_distill_nose")
        run_p = ck.get("run_paint")
        g.set_state(ck["generator"])
        if g_paint is not None and ck.get("generator_paint") is not None:
            g_paint.set_state(ck["generator_paint"])
        run_rc = ck.get("run_randconv")
        if g_rc is not None and ck.get("generator_randconv") is not None:
            g_rc.set_state(ck["generator_randconv"])
        torch.set_rng_state(ck["torch_rng"])
        if ck["steps"] != args.steps:
            log(f"resume: the checkpoint's schedule had {ck['steps']} steps, now {args.steps}")
        log(f"resume from {ckpt_path}: step {step}/{args.steps}, {done_before / 60:.1f} min trained before")
    stop = {"now": False}
    signal.signal(signal.SIGTERM, lambda *_: stop.update(now=True))

    def save_checkpoint():
        tmp = ckpt_path + ".tmp"
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step, "steps": args.steps, "ptr": ptr,
                    "order": order, "run": run, "run_distill": run_d, "run_false": run_f, "run_floor": run_t, "run_margin": run_m, "trained_seconds": done_before + time.time() - t0,
                    "generator": g.get_state(), "torch_rng": torch.get_rng_state(), "args": vars(args),
                    **({"generator_paint": g_paint.get_state(), "run_paint": run_p} if g_paint is not None else {}),
                    **({"run_distill_nose": run_dn} if run_dn is not None else {}),
                    **({"generator_randconv": g_rc.get_state(), "run_randconv": run_rc} if g_rc is not None else {})}, tmp)
        os.replace(tmp, ckpt_path)

    last_save = time.time()
    while True:
        el = time.time() - t0
        if args.steps:
            if step >= args.steps:
                break
            if stop["now"] or (args.session_minutes and el > args.session_minutes * 60):
                save_checkpoint()
                log(f"session ends at step {step}/{args.steps} ({(done_before + el) / 60:.1f} min trained); "
                    f"checkpoint {ckpt_path}: run again with --resume to go on")
                raise SystemExit(75)  # EX_TEMPFAIL: not finished, resumable
            fr = step / args.steps
        else:
            if el > budget:
                break
            fr = el / budget
        lr = args.lr * min(1.0, (step + 1) / args.warmup) * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * fr)))
        for pg in opt.param_groups:
            pg["lr"] = lr
        if ptr + args.batch > len(order):
            # new epoch: pick up shards written meanwhile (growing data set)
            d2, nf2 = load_shards(args.data, with_source=True)
            if nf2 > n_files:
                n_files = nf2
                N = set_data(d2)
                is_val = torch.tensor([int(s) in val_scenes for s in d2["scene"]])
                tr_idx = torch.nonzero(~is_val)[:, 0]
                val_idx = torch.nonzero(is_val)[:, 0]
                log(f"data: {n_files} shards, {N} samples")
            del d2
            order = tr_idx[torch.randperm(len(tr_idx), generator=g)]
            ptr = 0
        ix = order[ptr:ptr + args.batch]
        ptr += args.batch
        x, m, s, n, r, f = batch(ix, True)
        # the views the teacher does not cover (all of them without --distill)
        untaught = ~T["distil"][ix] if teacher is not None else torch.ones(len(ix), dtype=torch.bool)
        if args.paint:
            # not on the views the teacher covers: its maps were made for unpainted 0.5 views (models/head-contour/lab/0110)
            x, painted = paint_surface(x, m, s, n, untaught, g_paint, p=args.paint, spill=args.paint_spill)
            run_p = running(run_p, painted.float().mean())
        x_teacher = x  # the teacher always sees the view before any random convolution (models/head-contour/lab/0115)
        if args.randconv:
            # every view, the teacher's too: the student learns 0.5.0's maps from a convolved view of the original
            x, convolved = random_convolution(x, g_rc, p=args.randconv)
            run_rc = running(run_rc, convolved.float().mean())
        model.train()
        out = model(x)
        lm, ln, ls, lq = losses(out, m, s, n, r, f, args.nose_hard, args.edge_band)
        loss = lm + ln + 0.5 * ls + args.qweight * lq
        if teacher is not None:
            sel = T["distil"][ix]
            ld = torch.zeros(())
            if sel.any():
                with torch.no_grad():
                    t_logits = teacher.trunk(x_teacher[sel])[0]
                # a mean over the distilled views, scaled by their share of the batch (as if summed per view)
                terms = distill_terms(tuple(o[sel] for o in out[:3]), t_logits)
                ld = distill_sum(terms, args.distill_nose) * sel.float().mean()
                if args.distill_nose != 1:  # the nose map's share of the term, for the log (the same parts, not recomputed)
                    run_dn = running(run_dn, args.distill_nose * terms[1].detach() * sel.float().mean())
            loss = loss + args.distill_weight * ld
            run_d = running(run_d, ld.detach())
        if args.nose_false:
            # off on the views the teacher covers: 0.5.0's maps already hold their noses (models/head-contour/lab/0106)
            # models/head-contour/lab/0108: views without a visible nose are not judged (--nose-false-skip-none);
            # models/head-contour/lab/0117: only the views painted this step (--nose-false-painted-only)
            elig = nose_false_eligible(untaught, n, args.nose_false_skip_none,
                                       painted if args.nose_false_painted_only else None)
            lf, peaked = nose_false_peak_loss(out[1], n, f, elig, radius=args.nose_false_radius)
            loss = loss + args.nose_false * lf
            vf = torch.stack([lf.detach(), peaked.float().sum() / elig.float().sum().clamp(min=1)])
            run_f = running(run_f, vf)
        if args.nose_floor:
            # every view with a visible nose, the teacher's too (models/head-contour/lab/0108)
            has_n = n[:, 0] >= 0
            lt, low = nose_tip_floor_loss(out[1], n, has_n, floor=args.nose_floor_p)
            loss = loss + args.nose_floor * lt
            vt = torch.stack([lt.detach(), low.float().sum() / has_n.float().sum().clamp(min=1)])
            run_t = running(run_t, vt)
        if args.nose_margin:
            # views with a visible nose, off on the views the teacher covers (models/head-contour/lab/0109)
            elig = untaught & (n[:, 0] >= 0)
            lg, short = nose_margin_loss(out[1], n, f, elig, margin=args.nose_margin_m, radius=args.nose_false_radius)
            loss = loss + args.nose_margin * lg
            vg = torch.stack([lg.detach(), short.float().sum() / elig.float().sum().clamp(min=1)])
            run_m = running(run_m, vg)
        opt.zero_grad()
        loss.backward()
        opt.step()
        vals = torch.stack([loss, lm, ln, ls, lq]).detach()
        run = running(run, vals)
        step += 1
        if step % 100 == 0:
            log(f"step {step} t={el / 60:.1f}min lr={lr:.2e} loss={run[0]:.4f} mask={run[1]:.4f} nose={run[2]:.4f} "
                f"sticker={run[3]:.4f} quality={run[4]:.4f}" + (f" distill={run_d:.4f}" if run_d is not None else "")
                + (f" distill_nose={run_dn:.4f}" if run_dn is not None else "")
                + (f" false={run_f[0]:.4f} false_views={run_f[1]:.3f}" if run_f is not None else "")
                + (f" floor={run_t[0]:.4f} low_views={run_t[1]:.3f}" if run_t is not None else "")
                + (f" margin={run_m[0]:.4f} short_views={run_m[1]:.3f}" if run_m is not None else "")
                + (f" painted={run_p:.3f}" if run_p is not None else "")
                + (f" randconv={run_rc:.3f}" if run_rc is not None else ""))
        if step % 600 == 0:
            torch.save(model.state_dict(), os.path.join(args.out, "model.pt"))
        if args.steps and time.time() - last_save > args.checkpoint_minutes * 60:
            save_checkpoint()
            last_save = time.time()
    if args.steps:
        save_checkpoint()
    train_min = (done_before + time.time() - t0) / 60
    # validation on held-out views of the same data file
    model.eval()
    with torch.no_grad():
        iou, qacc, tot = [], [], None
        for i in range(0, n_val, 32):
            ix = val_idx[i:i + 32]
            x, m, s, n, r, f = batch(ix, False)
            out = model(x)
            l = torch.stack(losses(out, m, s, n, r, f))
            tot = l * len(ix) if tot is None else tot + l * len(ix)
            pm = (torch.sigmoid(out[0]) > 0.5).float()
            tm = (m > 0.5).float()
            iou.append(((pm * tm).sum((1, 2, 3)) / ((pm + tm).clamp(max=1).sum((1, 2, 3)) + 1e-6)))
            qacc.append(((out[3] > 0) == (r > 0.5)).float())
        iou = torch.cat(iou).mean().item()
        qacc = torch.cat(qacc).mean(0)
        tot = (tot / n_val).tolist()
    log(f"done: steps={step} train_minutes={train_min:.1f} val mask_iou={iou:.4f} val losses(mask,nose,sticker,quality)="
        f"{[round(v, 4) for v in tot]} val reason_acc={[round(v, 3) for v in qacc.tolist()]}")
    torch.save(model.state_dict(), os.path.join(args.out, "model.pt"))
    onnx_path = os.path.join(args.out, "head-contour.onnx")
    export_onnx(model, onnx_path)
    info = {"qv": args.qv, "init": args.init or args.init_onnx, **({"widths": list(widths(args.widen))} if args.widen else {}), "distill": args.distill and {"teacher": args.distill, "data": args.distill_data, "weight": args.distill_weight,
                                                                                  **({"nose_weight": args.distill_nose} if args.distill_nose != 1 else {})},
            "nose_false": args.nose_false and {"weight": args.nose_false, "radius": args.nose_false_radius,
                                               **({"skip_no_nose": True} if args.nose_false_skip_none else {}),
                                               **({"painted_only": True} if args.nose_false_painted_only else {})},
            "nose_floor": args.nose_floor and {"weight": args.nose_floor, "p": args.nose_floor_p},
            "nose_margin": args.nose_margin and {"weight": args.nose_margin, "m": args.nose_margin_m, "radius": args.nose_false_radius},
            "paint": args.paint and {"p": args.paint, "generator_seed": args.seed + 110_000,
                                     **({"spill_px": args.paint_spill} if args.paint_spill else {})},
            **({"randconv": {"p": args.randconv, "kernels": list(RANDCONV_KERNELS), "weights_std": "1/sqrt(3 k^2)",
                             "mix": "a ~ U(0,1)", "rescale": "min-max over the view's non-padding pixels",
                             "generator_seed": args.seed + 115_000}} if args.randconv else {}),
            "schedule_steps": args.steps or None, "params": n_params, "steps": step, "train_minutes": round(train_min, 2), "batch": args.batch, "seed": args.seed,
            "samples": int(N), "val_mask_iou": round(iou, 4), "onnx_bytes": os.path.getsize(onnx_path)}
    with open(os.path.join(args.out, "train-info.json"), "w") as fjson:
        json.dump(info, fjson, indent=1)
    log(f"exported {onnx_path} ({info['onnx_bytes']} bytes)")


if __name__ == "__main__":
    main()
