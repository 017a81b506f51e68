"""Tests of nose_strip.py (models/head-contour/lab/0124): the rim's geometry, the labels under turns and mirrors, the targets.

usage (from models/head-contour): OMP_NUM_THREADS=1 /usr/bin/python3 -m unittest test_nose_strip -v
"""
import math
import unittest

import numpy as np

import nose_strip as N


def ellipse(cx, cy, a, b, n=500):
    th = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([cx + a * np.cos(th), cy + b * np.sin(th)], 1)


class Rim(unittest.TestCase):
    def test_points_go_to_the_strip_and_back(self):
        rim = N.Rim(ellipse(300, 200, 130, 100))
        self.assertTrue(rim.ok)
        np.testing.assert_allclose(rim.c, [300, 200], atol=1e-6)
        self.assertAlmostEqual(rim.R, math.sqrt(130 * 100), delta=0.5)
        for p in [(440, 200), (300, 310), (250, 120), (300.0, 201.0)]:
            k, j = rim.to_strip(p)
            self.assertTrue(0 <= j < N.A)
            np.testing.assert_allclose(rim.to_photo(k, j), p, atol=1e-6)

    def test_a_point_on_the_outline_is_on_the_rims_row(self):
        rim = N.Rim(ellipse(300, 200, 130, 100))
        k, _ = rim.to_strip((300 + 130 * math.cos(1.0), 200 + 100 * math.sin(1.0)))
        self.assertAlmostEqual(k, -N.LO / (N.HI - N.LO) * (N.K - 1), delta=0.1)

    def test_the_strip_reads_the_photo_along_the_rim(self):
        img = np.zeros((400, 600, 3), np.uint8)
        img[:, 450:] = 255  # bright beyond x = 450, where the ray at angle 0 leaves the outline at 430
        rim = N.Rim(ellipse(300, 200, 130, 100))
        s = N.sample_strip(img, rim)
        self.assertEqual(s.shape, (N.K, N.A, 4))
        k_edge, _ = rim.to_strip((450, 200))
        col = s[:, 0, 0].astype(int)
        self.assertLess(col[int(k_edge) - 2], 60)
        self.assertGreater(col[int(k_edge) + 3], 200)
        self.assertTrue((s[..., 3] == 255).all())


class Labels(unittest.TestCase):
    def test_turns_mirrors_and_shifts_carry_the_label_with_the_spot(self):
        rng = np.random.default_rng(3)
        strips = np.zeros((40, N.K, N.A, 4), np.uint8)
        labels = np.zeros((40, 2), np.float32)
        for i in range(40):
            k, j = int(rng.integers(2, N.K - 2)), int(rng.integers(N.A))
            strips[i, k, j, :3] = 255
            labels[i] = (k, j)
        labels[0] = (-1, -1)
        strips[0] = 0
        s, l = N.augment(strips, labels, rng)
        self.assertEqual(tuple(l[0]), (-1.0, -1.0))
        for i in range(1, 40):
            k, j = np.unravel_index(s[i, ..., 0].argmax(), (N.K, N.A))
            self.assertEqual((k, j), (int(l[i, 0]), int(l[i, 1])))

    def test_targets_sum_to_one_and_peak_at_the_tip_around_the_circle(self):
        t = N.targets(np.float32([[10, 255.7], [-1, -1], [3, 64]]))
        np.testing.assert_allclose(t.sum(1), 1, atol=1e-5)
        self.assertEqual(t[1, -1], 1)
        self.assertEqual(np.unravel_index(t[0, :-1].argmax(), (N.HK, N.HA)), (5, 0))  # 255.7 wraps to the first cell
        self.assertEqual(np.unravel_index(t[2, :-1].argmax(), (N.HK, N.HA)), (1, 32))

    def test_a_photo_without_a_visible_nose_has_no_label(self):
        rim = N.Rim(ellipse(300, 200, 130, 100))
        self.assertIsNone(N.label_of({"reasons": [1], "nose": [440, 200]}, rim))
        self.assertIsNone(N.label_of({"reasons": [7], "nose": [440, 200]}, rim))
        self.assertEqual(N.label_of({"reasons": [], "nose": [900, 200]}, rim), "far")
        k, j = N.label_of({"reasons": [0], "nose": [440, 200]}, rim)
        self.assertAlmostEqual(j % N.A, 0, delta=1e-6)


class Pick(unittest.TestCase):
    def test_the_pick_reads_the_heatmaps_peak_or_none(self):
        import torch

        class Fixed(torch.nn.Module):
            def __init__(self, logits):
                super().__init__()
                self.logits = torch.tensor(logits)

            def forward(self, x):
                return self.logits.expand(len(x), -1)

        logits = np.full(N.HK * N.HA + 1, -20, np.float32)
        logits[5 * N.HA + 10] = 10
        (k, j), = N.pick(Fixed(logits), np.zeros((1, N.K, N.A, 4), np.uint8))
        self.assertAlmostEqual(k, 10.5, delta=1e-3)
        self.assertAlmostEqual(j, 20.5, delta=1e-3)
        logits[-1] = 12
        self.assertEqual(N.pick(Fixed(logits), np.zeros((1, N.K, N.A, 4), np.uint8)), [None])


if __name__ == "__main__":
    unittest.main()
