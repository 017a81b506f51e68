"""int8 QDQ version of a shipped model (issue 18 item 5): weights per channel, activations per tensor.

    quantize.py IN.onnx OUT.onnx CALIB(shard dirs) [--views 256] [--keep-float maps,quality]

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
from torch.ao.quantization import (FakeQuantize, MovingAverageMinMaxObserver, MovingAveragePerChannelMinMaxObserver, QConfig,
                                   QConfigMapping, disable_observer)
from torch.ao.quantization.quantize_fx import prepare_qat_fx

from data import load_shards
from onnx_init import load_shipped
from train import SIZE, HeadContourNet


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("calib")
    ap.add_argument("--views", type=int, default=256)
    ap.add_argument("--keep-float", default="maps,quality")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    model = load_shipped(HeadContourNet(qv=4), args.inp)
    # plain FakeQuantize (the fused observer of the default configuration does not export): uint8
    # activations per tensor, int8 symmetric weights per output channel, as onnxruntime's QDQ kernels want
    act = FakeQuantize.with_args(observer=MovingAverageMinMaxObserver, quant_min=0, quant_max=255, dtype=torch.quint8,
                                 qscheme=torch.per_tensor_affine, averaging_constant=0.05)
    wgt = FakeQuantize.with_args(observer=MovingAveragePerChannelMinMaxObserver, quant_min=-127, quant_max=127, dtype=torch.qint8,
                                 qscheme=torch.per_channel_symmetric, ch_axis=0)
    qmap = QConfigMapping().set_global(QConfig(activation=act, weight=wgt)).set_object_type(torch.sigmoid, None)
    for name in filter(None, args.keep_float.split(",")):
        qmap = qmap.set_module_name(name, None)
    example = (torch.zeros(1, 3, SIZE, SIZE),)
    model.train()  # prepare_qat_fx wants a training-mode model; evaluation mode right after
    prepared = prepare_qat_fx(model, qmap, example)
    prepared.eval()
    d, _ = load_shards(args.calib)
    rng = np.random.default_rng(0)
    pick = np.sort(rng.choice(len(d["img"]), size=min(args.views, len(d["img"])), replace=False))
    views = torch.from_numpy(d["img"][pick]).permute(0, 3, 1, 2).float() / 255
    with torch.no_grad():
        for i in range(0, len(views), 16):
            for k in range(4):  # the close-up is measured in its four quarter turns
                prepared(torch.rot90(views[i:i + 16], k, (2, 3)))
    prepared.apply(disable_observer)
    torch.onnx.export(prepared, example[0], args.out, input_names=["image"], output_names=["mask", "nose", "sticker", "quality"],
                      dynamic_axes={k: {0: "N"} for k in ("image", "mask", "nose", "sticker", "quality")}, opset_version=17,
                      do_constant_folding=True)
    print(f"{args.out}: int8 QDQ, calibrated on {len(views)} views x 4 turns")


if __name__ == "__main__":
    main()
