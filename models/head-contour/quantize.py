"""int8 QDQ version of a shipped model (issue 18 item 5): weights per channel, activations per tensor.

    quantize.py IN.onnx OUT.onnx CALIB(shard dirs) [--views 256] [--keep-float maps,quality] [--observer moving-average]
                [--finetune-steps N --finetune-data DIRS --finetune-lr 1e-4]

The model is rebuilt in torch from IN.onnx (onnx_init.load_shipped, exact), prepared with torch's FX
quantisation (fake-quantise observers; the fbgemm/x86 QAT configuration), calibrated on rendered
training views (observers record activation ranges), then exported with the observers frozen: every
FakeQuantize becomes a QuantizeLinear/DequantizeLinear pair (opset 17), which onnxruntime runs as int8
kernels. The map logits' last 1x1 convolution and the quality MLP stay float (the outline is the 0.5
iso-line of the upsampled mask logits; the reasons are thresholded logits).
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.ao.quantization import (FakeQuantize, HistogramObserver, MovingAverageMinMaxObserver, MovingAveragePerChannelMinMaxObserver, QConfig,
                                   QConfigMapping, disable_observer)
from torch.ao.quantization.quantize_fx import prepare_qat_fx

from data import load_shards
from onnx_init import load_shipped
from train import SIZE, HeadContourNet


def fold_batch_norms(model):
    """Drop every BatchNorm (after load_shipped each only adds the folded bias) into the convolution
    before it, so quantisation sees Conv -> ReLU, which onnxruntime fuses into one int8 convolution
    (a QAT Conv-BN module would export a float Div and BatchNorm after the convolution instead)."""
    with torch.no_grad():
        for seq in [m for m in model.modules() if isinstance(m, nn.Sequential)]:
            mods, out = list(seq), []
            for m in mods:
                if isinstance(m, nn.BatchNorm2d):
                    conv = out[-1]
                    assert isinstance(conv, nn.Conv2d) and conv.bias is None
                    scale = m.weight / torch.sqrt(m.running_var + m.eps)
                    fused = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride, conv.padding, bias=True)
                    fused.weight.copy_(conv.weight * scale[:, None, None, None])
                    fused.bias.copy_(m.bias - m.running_mean * scale)
                    out[-1] = fused
                else:
                    out.append(m)
            for i in range(len(seq)):
                del seq[0]
            for m in out:
                seq.append(m)
    return model.eval()


def finetune(prepared, args):
    """Quantisation-aware fine-tune of the map branch: the calibrated ranges stay fixed (observers off),
    the weights learn to measure through the int8 rounding (straight-through gradients), with stage 1's
    map losses (mask, nose, sticker; train.losses) at a small learning rate. The quality head and its
    conv pyramid stay as fitted, so that its thresholds still apply."""
    from train import augment, losses
    d, _ = load_shards(args.finetune_data or args.calib)
    img, mask, stk = torch.from_numpy(d["img"]), torch.from_numpy(d["mask"]), torch.from_numpy(d["sticker"])
    nose, reasons, frac = torch.from_numpy(d["nose"]), torch.from_numpy(d["reasons"]).float(), torch.from_numpy(d["frac"]).float()
    g = torch.Generator().manual_seed(args.seed)
    params = [p_ for n_, p_ in prepared.named_parameters() if not (n_.startswith("quality") or n_.startswith("qconv"))]
    for p_ in params:
        p_.requires_grad_(True)
    opt = torch.optim.AdamW(params, lr=args.finetune_lr, weight_decay=1e-4)
    prepared.train()
    for step in range(args.finetune_steps):
        ix = torch.randint(0, len(img), (args.batch,), generator=g)
        x, m, s, n = augment(img[ix].permute(0, 3, 1, 2).float() / 255, mask[ix][:, None].float() / 255,
                             stk[ix][:, None].float() / 255, nose[ix].clone(), g)
        for group in opt.param_groups:  # cosine from the given rate to 0
            group["lr"] = args.finetune_lr * 0.5 * (1 + np.cos(np.pi * step / args.finetune_steps))
        lm, ln, ls, _ = losses(prepared(x), m, s, n, reasons[ix], frac[ix])
        loss = lm + ln + 0.5 * ls
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 50 == 0 or step == args.finetune_steps - 1:
            print(f"fine-tune step {step} loss {loss.item():.4f} mask {lm.item():.4f} nose {ln.item():.4f} sticker {ls.item():.4f}", flush=True)
    prepared.eval()
    for p_ in prepared.parameters():
        p_.requires_grad_(False)


def scalar_per_tensor_qparams(prepared):
    """Give every per-tensor scale and zero point the shape ONNX expects of them: a scalar, not a
    one-element vector. onnxruntime quantises a float convolution or Gemm whose input comes from a
    DequantizeLinear (the map logits' convolution, the quality MLP's first layer) itself, per tensor,
    and declares the bias scale it derives (activation scale x weight scale) with the weight scale's
    shape, a scalar; the product of a [1] activation scale and that scalar is [1], and onnxruntime-web
    refuses the mismatch ("ShapeInferenceError ... inferred=1 declared=0" on /maps/Conv_bias_scale)
    where onnxruntime-node only warns. With scalar activation scales every product has the declared shape."""
    n = 0
    for fq in prepared.modules():
        if isinstance(fq, FakeQuantize) and fq.qscheme in (torch.per_tensor_affine, torch.per_tensor_symmetric):
            fq.scale = fq.scale.detach().reshape(())
            fq.zero_point = fq.zero_point.detach().reshape(())
            n += 1
    return n


MAP_UPSAMPLE_CALL = 4  # HeadContourNet.trunk: four nearest-neighbour upsamplings in the decoder, then the maps' bilinear one

ACTIVATION_OBSERVERS = {
    # min/max of each batch, averaged (5 % per batch): the ranges ADR 82 and 93 measured
    "moving-average": dict(observer=MovingAverageMinMaxObserver, averaging_constant=0.05),
    # a histogram of every value seen; the range is the one that minimises the L2 error of the
    # quantised histogram, so rare outliers are clipped and the common values keep more resolution
    "histogram": dict(observer=HistogramObserver),
}


def activation_fake_quant(observer="moving-average"):
    """uint8 activations per tensor (affine: nearly all activations follow a ReLU or are the image, so
    a symmetric range would waste half the codes), ranges recorded by the named observer."""
    return FakeQuantize.with_args(quant_min=0, quant_max=255, dtype=torch.quint8, qscheme=torch.per_tensor_affine,
                                  **ACTIVATION_OBSERVERS[observer])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("calib")
    ap.add_argument("--views", type=int, default=256)
    ap.add_argument("--keep-float", default="maps,quality",
                    help="modules left float (e.g. maps,quality,stem or stem.0); map-outputs: the map logits leave the model unquantised")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--observer", choices=list(ACTIVATION_OBSERVERS), default="moving-average",
                    help="activation range observer: moving-average min/max (default) or histogram (L2-optimal clipping)")
    ap.add_argument("--finetune-steps", type=int, default=0, help="quantisation-aware fine-tune of the map branch (0: none)")
    ap.add_argument("--finetune-data", default="", help="shard dirs for the fine-tune (default: CALIB)")
    ap.add_argument("--finetune-lr", type=float, default=1e-4)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--seed", type=int, default=6)
    ap.add_argument("--reuse-calibration", action="store_true", help="the ranges recorded by an earlier run (OUT.calibration.pt)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    model = fold_batch_norms(load_shipped(HeadContourNet(qv=4), args.inp))
    # plain FakeQuantize (the fused observer of the default configuration does not export): uint8
    # activations per tensor, int8 symmetric weights per output channel, as onnxruntime's QDQ kernels want
    act = activation_fake_quant(args.observer)
    wgt = FakeQuantize.with_args(observer=MovingAveragePerChannelMinMaxObserver, quant_min=-128, quant_max=127, dtype=torch.qint8,
                                 qscheme=torch.per_channel_symmetric, ch_axis=0)
    qmap = QConfigMapping().set_global(QConfig(activation=act, weight=wgt)).set_object_type(torch.sigmoid, None).set_object_type(torch.nn.functional.avg_pool2d, None)
    for name in filter(None, args.keep_float.split(",")):
        if name == "map-outputs":
            # the map logits' 2x bilinear upsampling (the fifth interpolate of the trunk, after the four
            # decoder ones) unquantised: the mask, nose and sticker logits leave the model in float
            # instead of in uint8 steps of ~0.24 logit, so the 0.5 iso-line and the nose peak are not rounded
            qmap = qmap.set_module_name_object_type_order("", torch.nn.functional.interpolate, MAP_UPSAMPLE_CALL, None)
        else:
            qmap = qmap.set_module_name(name, None)
    example = (torch.zeros(1, 3, SIZE, SIZE),)
    model.train()  # prepare_qat_fx wants a training-mode model; evaluation mode right after
    prepared = prepare_qat_fx(model, qmap, example)
    prepared.eval()
    calib_state = args.out + ".calibration.pt"
    if args.reuse_calibration:
        prepared.load_state_dict(torch.load(calib_state))
        n_views = "earlier"
    else:
        d, _ = load_shards(args.calib)
        rng = np.random.default_rng(0)
        pick = np.sort(rng.choice(len(d["img"]), size=min(args.views, len(d["img"])), replace=False))
        views = torch.from_numpy(d["img"][pick]).permute(0, 3, 1, 2).float() / 255
        n_views = len(views)
        with torch.no_grad():
            for i in range(0, len(views), 16):
                for k in range(4):  # the close-up is measured in its four quarter turns
                    prepared(torch.rot90(views[i:i + 16], k, (2, 3)))
        torch.save(prepared.state_dict(), calib_state)
    prepared.apply(disable_observer)
    if args.finetune_steps > 0:
        finetune(prepared, args)
    scalar_per_tensor_qparams(prepared)
    for p_ in prepared.parameters():
        p_.requires_grad_(False)
    with torch.no_grad():
        torch.onnx.export(prepared, example[0], args.out, input_names=["image"], output_names=["mask", "nose", "sticker", "quality"],
                          dynamic_axes={k: {0: "N"} for k in ("image", "mask", "nose", "sticker", "quality")}, opset_version=17,
                          do_constant_folding=True)
    print(f"{args.out}: int8 QDQ, calibrated on {n_views} views x 4 turns")


if __name__ == "__main__":
    main()
