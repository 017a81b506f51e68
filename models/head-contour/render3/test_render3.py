"""render3's parts that run outside Blender: the sampler, the truth rules and the phone's development.

    cd models/head-contour/render3 && /usr/bin/python3 -m unittest test_render3
"""
import math
import os
import sys
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import build  # noqa: E402
import post  # noqa: E402
import sample  # noqa: E402
import truth as T  # noqa: E402


class SamplerTest(unittest.TestCase):
    def test_a_scene_is_a_function_of_its_seed(self):
        a = build.scene(build.HELD_OUT_SEED, 20, 7)
        b = build.scene(build.HELD_OUT_SEED, 20, 7)
        self.assertEqual(a, b)
        self.assertNotEqual(a, build.scene(build.TUNING_SEED, 20, 7))
        # a longer set extends a shorter one
        self.assertEqual(build.scene_seeds(build.HELD_OUT_SEED, 10), build.scene_seeds(build.HELD_OUT_SEED, 30)[:10])

    def test_the_three_seeds_differ(self):
        self.assertEqual(len({build.HELD_OUT_SEED, build.TUNING_SEED, build.TRAINING_SEED}), 3)

    def test_good_scenes_keep_the_head_straight_and_bad_ones_are_posed_for_their_reason(self):
        rng = np.random.default_rng(3)
        for _ in range(300):
            p = sample.sample_scene(rng)
            pose, want = p["pose"], p["want"]
            if not any(r in want for r in (1, 3, 4, 6, 7)):
                self.assertLessEqual(abs(pose["pitch"]), 3.5)
                self.assertLessEqual(abs(pose["roll"]), 3.5)
                self.assertEqual(pose["oblique"], 0.0)
            if 7 in want:
                self.assertGreaterEqual(pose["pitch"], 45)
            if 4 in want:
                self.assertLessEqual(pose["pitch"], -22)
            if 6 in want:
                self.assertGreaterEqual(abs(pose["roll"]), 16)
            if 5 in want:
                self.assertFalse(p["cover"]["cap"])
                self.assertGreaterEqual(p["cover"]["tufts"], 4)
            self.assertTrue(0.30 <= p["camera"]["distance"] <= 0.60)

    def test_about_half_the_scenes_are_good(self):
        rng = np.random.default_rng(5)
        good = sum(1 for _ in range(2000) if not sample.draw_reasons(rng))
        self.assertTrue(900 < good < 1100, good)

    def test_the_params_are_plain_json(self):
        import json
        p = sample.sample_scene(np.random.default_rng(9))
        self.assertEqual(json.loads(json.dumps(p)), p)


class TruthTest(unittest.TestCase):
    def disc(self, H, W, cx, cy, r):
        yy, xx = np.mgrid[:H, :W]
        return (xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2 <= r * r

    def test_labels_round_trip_through_the_8_bit_image(self):
        ids = np.arange(10, dtype=np.uint8).reshape(2, 5)
        self.assertTrue((T.decode_labels(ids * T.LABEL_STEP) == ids).all())
        self.assertTrue((T.decode_labels(ids * T.LABEL_STEP + 3) == ids).all())

    def test_the_nose_rule_counts_pixels_against_the_head_size(self):
        H = W = 200
        full = self.disc(H, W, 100, 100, 80)
        diam = T.head_diameter(full)
        self.assertAlmostEqual(diam, 160, delta=1.5)
        need = max(4, (0.02 * diam) ** 2)  # about 10 pixels for a head 160 px across
        labels = np.zeros((H, W), np.uint8)
        tip = (100.5, 18.5)
        labels[18, 100:100 + int(need) - 1] = T.NOSE
        self.assertFalse(T.nose_rule(labels, tip, diam)[0])
        labels[18, 100:100 + int(math.ceil(need))] = T.NOSE
        self.assertTrue(T.nose_rule(labels, tip, diam)[0])
        # pixels far from the tip are not the tip
        self.assertFalse(T.nose_rule(labels, (100.5, 120.5), diam)[0])
        # a tip outside the frame is not visible
        self.assertFalse(T.nose_rule(labels, (-3.0, 18.5), diam)[0])

    def test_incomplete_by_frame_hand_or_outline(self):
        H = W = 200
        full = self.disc(H, W, 100, 100, 60)
        labels = np.where(full, T.VAULT, T.BG).astype(np.uint8)
        self.assertFalse(T.incomplete(labels, full, 0.0)[0])
        self.assertTrue(T.incomplete(labels, full, 0.02)[0])
        hand = labels.copy()
        hand[95:105, 35:45] = T.HAND  # a finger across the outline's edge
        inc, figs = T.incomplete(hand, full, 0.0)
        self.assertTrue(inc)
        self.assertGreater(figs["edge_occluded"], 0.01)

    def test_the_head_mask_keeps_hair_on_the_vault_only(self):
        full = np.zeros((10, 10), bool)
        full[2:8, 2:8] = True
        labels = np.full((10, 10), T.HAIR, np.uint8)
        m = T.head_mask(labels, full)
        self.assertTrue((m == full).all())

    def test_reasons_seen_add_no_nose_except_for_face_and_back_views(self):
        H = W = 100
        full = self.disc(H, W, 50, 50, 30)
        labels = np.where(full, T.VAULT, T.BG).astype(np.uint8)
        self.assertEqual(T.reasons_seen([], labels, full, (50.0, 15.0), 0.0)[0], [1])
        self.assertEqual(T.reasons_seen([7], labels, full, (50.0, 15.0), 0.0)[0], [7])
        self.assertEqual(T.reasons_seen([4], labels, full, (50.0, 15.0), 0.0)[0], [4])


class DevelopTest(unittest.TestCase):
    def scene(self):
        yy, xx = np.mgrid[:120, :160]
        head = (xx - 80) ** 2 + (yy - 60) ** 2 <= 40 ** 2
        img = np.where(head[..., None], [0.5, 0.35, 0.25], [0.1, 0.12, 0.2]).astype(np.float32)
        return img, head

    def test_good_photos_stay_under_the_good_blur_and_blurry_ones_over_the_blurry(self):
        img, head = self.scene()
        for seed in range(12):
            _, blur, _ = post.develop(img, head, 80.0, seed, blurry=False)
            self.assertLessEqual(blur, post.GOOD_BLUR + 1e-9)
            _, blur, fx = post.develop(img, head, 80.0, seed, blurry=True)
            self.assertGreaterEqual(blur, post.BLURRY)

    def test_development_is_a_function_of_its_seed(self):
        img, head = self.scene()
        a, _, _ = post.develop(img, head, 80.0, 4, blurry=False)
        b, _, _ = post.develop(img, head, 80.0, 4, blurry=False)
        self.assertTrue((a == b).all())
        self.assertEqual(a.shape, (120, 160, 3))
        self.assertEqual(a.dtype, np.uint8)

    def test_blur_kernels_have_the_asked_spread(self):
        rng = np.random.default_rng(0)
        for kind in ("defocus", "motion"):
            k = post.blur_kernel(rng, 4.0, kind)
            self.assertAlmostEqual(float(k.sum()), 1.0, places=5)
            yy, xx = np.mgrid[:k.shape[0], :k.shape[1]]
            c = (k.shape[0] - 1) / 2
            var = float((k * ((xx - c) ** 2 + (yy - c) ** 2)).sum())
            # total variance of a 2-D kernel: 2 sigma^2 for a disc, sigma^2 along one line for a streak
            want = 2 * 16.0 if kind == "defocus" else 16.0
            self.assertAlmostEqual(var / want, 1.0, delta=0.25)


class ViewsTest(unittest.TestCase):
    """A cache dir as blend.py writes it, made by hand: the training views and the eval set read it."""

    def setUp(self):
        import json
        import tempfile
        import cv2
        self.dir = tempfile.mkdtemp()
        H, W = 120, 160
        yy, xx = np.mgrid[:H, :W]
        full = ((xx - 80) ** 2 / 40 ** 2 + (yy - 62) ** 2 / 34 ** 2) <= 1
        labels = np.where(full, T.VAULT, T.BG).astype(np.uint8)
        labels[20:26, 78:83] = T.NOSE
        beauty = np.where(full[..., None], [0.5, 0.35, 0.25], [0.1, 0.12, 0.2]).astype(np.float32)
        cv2.imwrite(os.path.join(self.dir, "beauty.exr"), beauty[..., ::-1])
        cv2.imwrite(os.path.join(self.dir, "labels.png"), np.repeat((labels * T.LABEL_STEP)[..., None], 3, -1))
        cv2.imwrite(os.path.join(self.dir, "full.png"), np.repeat((full * 255).astype(np.uint8)[..., None], 3, -1))
        p = sample.sample_scene(np.random.default_rng(1), want=[])
        meta = {"params": p, "reasons": [], "figures": {"nose_visible": True, "nose_pixels": 30}, "nose_uv": [80.5, 22.5],
                "ci": 85.0, "cvai": 2.0, "cva_mm": 3.0, "length_mm": 140.0, "sticker": None, "lens_mm": 30.0,
                "camera_to_section_cm": 45.0, "seconds": {"passes": 1.0, "beauty": 5.0}}
        with open(os.path.join(self.dir, "meta.json"), "w") as f:
            json.dump(meta, f)

    def cached_here(self):
        """build's cache and kept folders pointed at this test's own folders."""
        import tempfile
        from unittest import mock
        self.tmp = tempfile.mkdtemp()
        empty = os.path.join(self.tmp, "no-cache")
        self.patches = [mock.patch.object(build, "cache_dir", lambda seed, i: self.dir if self.cached else empty),
                        mock.patch.object(build, "KEPT", os.path.join(self.tmp, "kept"))]
        for p in self.patches:
            p.start()
        self.addCleanup(lambda: [p.stop() for p in self.patches])
        self.cached = True

    def test_views_in_the_training_layout(self):
        self.cached_here()
        views = build.scene_views(build.developed(330001, 0, 123), 123, 0)
        self.assertEqual(len(views), 3)
        img, mask, sticker, nose, reasons, frac, idx, ci, cvai = views[0]
        self.assertEqual(img.shape, (160, 160, 3))
        self.assertEqual(mask.dtype, np.uint8)
        self.assertGreater(int(mask.max()), 200)
        self.assertEqual(int(sticker.max()), 0)
        self.assertTrue(0 <= nose[0] < 160 and 0 <= nose[1] < 160)
        self.assertEqual(reasons.tolist(), [0] * 8)
        self.assertEqual((ci, cvai), (85.0, 2.0))
        # the crops hold the head at 55-85 % of their side
        for v in views[1:]:
            self.assertTrue(0.5 <= v[5] <= 0.9, v[5])

    def test_a_kept_pack_gives_the_views_the_cache_gives(self):
        self.cached_here()
        sets_dir = os.path.join(self.tmp, "sets")
        with self.assertRaises(SystemExit):  # judged seeds are never training packs
            build.keep(build.HELD_OUT_SEED, 2, 2, sets_dir)
        self.assertEqual(build.keep(330001, 3, 2, sets_dir), [os.path.join(sets_dir, "render3-train-330001-0000.tar.gz")])
        first = open(os.path.join(sets_dir, "render3-train-330001-0000.tar.gz"), "rb").read()
        os.remove(os.path.join(sets_dir, "render3-train-330001-0000.tar.gz"))
        build.keep(330001, 3, 2, sets_dir)  # the same bytes when made again
        self.assertEqual(open(os.path.join(sets_dir, "render3-train-330001-0000.tar.gz"), "rb").read(), first)
        seeds = build.scene_seeds(330001, 3)
        from_cache = [build.scene_views(build.developed(330001, i, seeds[i]), seeds[i], i) for i in range(2)]
        self.cached = False  # a new session: no cache, only the committed pack
        self.assertIsNone(build.developed(330001, 0, seeds[0]))
        self.assertEqual(build.unkeep(330001, sets_dir), 1)
        self.assertEqual(build.unkeep(330001, sets_dir), 0)
        for i in range(2):
            kept = build.scene_views(build.developed(330001, i, seeds[i]), seeds[i], i)
            for a, b in zip(from_cache[i], kept):
                for x, y in zip(a, b):
                    np.testing.assert_array_equal(np.asarray(x), np.asarray(y))
        self.assertIsNone(build.developed(330001, 2, seeds[2]))  # scene 2 was in no complete group

    def test_the_finished_photo_and_its_truth(self):
        img, t = post.finish(self.dir, 5)
        self.assertEqual(img.shape, (120, 160, 3))
        self.assertEqual(t["reasons"], [])
        self.assertEqual(t["nose"], [80.5, 22.5])
        self.assertAlmostEqual(t["head_diam"], 2 * math.sqrt(t["full"].sum() / math.pi))


if __name__ == "__main__":
    unittest.main()
