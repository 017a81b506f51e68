"""Tests of train.py's distillation option (docs/adr/0104) and data.load_shards' sources.

usage (from models/head-contour): OMP_NUM_THREADS=1 /usr/bin/python3 -m unittest test_train -v
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import torch

from data import load_shards
from train import HeadContourNet, distill_loss

HERE = os.path.dirname(os.path.abspath(__file__))
SHIPPED = os.path.join(HERE, "head-contour.onnx")


def write_shard(path, n, scene0, seed):
    """A tiny shard in data.py's layout: n views of n scenes (ids scene0..), a disc as the head."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[:160, :160]
    mask = (((xx - 80) ** 2 + (yy - 80) ** 2) < 50 ** 2).astype(np.uint8) * 255
    img = rng.integers(0, 255, (n, 160, 160, 3), dtype=np.uint8)
    np.savez(path, img=img, mask=np.repeat(mask[None], n, 0), sticker=np.zeros((n, 160, 160), np.uint8),
             nose=np.tile(np.float32([[80.5, 30.5]]), (n, 1)), reasons=np.zeros((n, 8), np.float32),
             frac=np.full(n, 0.6, np.float32), scene=np.arange(scene0, scene0 + n), ci=np.zeros(n), cvai=np.zeros(n))


class DistillLoss(unittest.TestCase):
    def test_zero_when_the_maps_agree_and_positive_otherwise(self):
        g = torch.Generator().manual_seed(0)
        t = torch.randn(3, 3, 160, 160, generator=g) * 3
        same = distill_loss((t[:, 0:1], t[:, 1:2], t[:, 2:3]), t)
        self.assertAlmostEqual(float(same), 0.0, places=5)
        s = t + torch.randn(3, 3, 160, 160, generator=g)
        self.assertGreater(float(distill_loss((s[:, 0:1], s[:, 1:2], s[:, 2:3]), t)), 0.01)

    def test_gradient_reaches_the_student_only(self):
        t = torch.randn(2, 3, 160, 160)
        s = torch.zeros(2, 3, 160, 160, requires_grad=True)
        distill_loss((s[:, 0:1], s[:, 1:2], s[:, 2:3]), t).backward()
        self.assertGreater(float(s.grad.abs().sum()), 0)
        # pulled towards the teacher: the gradient's sign is that of (student - teacher) probabilities
        self.assertTrue(bool(((s.grad * (torch.sigmoid(s) - torch.sigmoid(t)).detach()) >= 0).all()))


class LoadShardsSource(unittest.TestCase):
    def test_each_view_names_its_entry_and_a_repeated_directory_counts_twice(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
            os.makedirs(a), os.makedirs(b)
            write_shard(os.path.join(a, "shard_0000.npz"), 3, 0, 1)
            write_shard(os.path.join(a, "shard_0001.npz"), 2, 3, 2)
            write_shard(os.path.join(b, "shard_0000.npz"), 4, 0, 3)
            d, n = load_shards(f"{a},{b},{b}", with_source=True)
            self.assertEqual(n, 4)
            self.assertEqual(d["source"].tolist(), [0] * 5 + [1] * 4 + [2] * 4)
            self.assertNotIn("source", load_shards(a)[0])


@unittest.skipUnless(os.path.exists(SHIPPED), "needs the shipped head-contour.onnx")
class TrainWithDistill(unittest.TestCase):
    def run_train(self, tmp, *extra):
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        return subprocess.run([sys.executable, os.path.join(HERE, "train.py"), f"{tmp}/a,{tmp}/b", f"{tmp}/out",
                               "--steps", "3", "--batch", "8", "--warmup", "1", "--threads", "1", "--qv", "1", *extra],
                              cwd=HERE, env=env, capture_output=True, text=True)

    def test_the_teacher_term_is_on_the_named_entry_only_and_recorded(self):
        with tempfile.TemporaryDirectory() as tmp:
            for sub, seed in (("a", 1), ("b", 2)):
                os.makedirs(f"{tmp}/{sub}")
                write_shard(f"{tmp}/{sub}/shard_0000.npz", 40, 0 if sub == "a" else 40, seed)
            r = self.run_train(tmp, "--distill", SHIPPED, "--distill-data", f"{tmp}/b/")
            self.assertEqual(r.returncode, 0, r.stderr[-2000:])
            self.assertIn("(40 of 80), weight 1.0", r.stdout)
            with open(f"{tmp}/out/train-info.json") as f:
                info = json.load(f)
            self.assertEqual(info["distill"]["teacher"], SHIPPED)
            ck = torch.load(f"{tmp}/out/checkpoint.pt")
            self.assertIsNotNone(ck["run_distill"])

    def test_a_distill_entry_not_in_data_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            for sub in ("a", "b"):
                os.makedirs(f"{tmp}/{sub}")
                write_shard(f"{tmp}/{sub}/shard_0000.npz", 40, 0, 1)
            r = self.run_train(tmp, "--distill", SHIPPED, "--distill-data", f"{tmp}/c")
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("names none of DATA's entries", r.stdout + r.stderr)


if __name__ == "__main__":
    unittest.main()
