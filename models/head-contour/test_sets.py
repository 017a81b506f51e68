"""sets.py: a judged set packs to the same bytes every time, unpacks exactly, and is refused when incomplete or altered.
    cd models/head-contour && /usr/bin/python3 -m unittest test_sets
"""
import json
import os
import shutil
import tempfile
import unittest

import sets


class SetsTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.data, self.sets = os.path.join(self.root, "data"), os.path.join(self.root, "sets")
        self.set_dir = os.path.join(self.data, "render3", "heldout")
        os.makedirs(self.set_dir)
        self.files = {"0000.jpg": b"\xff\xd8photo0", "0000_mask.png": b"mask0", "0001.jpg": b"\xff\xd8photo1"}
        for f, b in self.files.items():
            open(os.path.join(self.set_dir, f), "wb").write(b)
        self.truth = {"seed": 310001, "items": [{"image": "0000.jpg", "reasons": []}, {"image": "0001.jpg", "reasons": [2]}]}
        json.dump(self.truth, open(os.path.join(self.set_dir, "truth.json"), "w"))

    def tearDown(self):
        shutil.rmtree(self.root)

    def test_pack_then_unpack_gives_the_same_set(self):
        out, entry = sets.pack(self.set_dir, self.data, self.sets)
        self.assertEqual(os.path.basename(out), "render3-heldout.tar.gz")
        self.assertEqual((entry["photos"], entry["good"], entry["seed"]), (2, 1, 310001))
        first = open(out, "rb").read()
        os.utime(os.path.join(self.set_dir, "0000.jpg"), (1, 1))  # times do not reach the archive
        sets.pack(self.set_dir, self.data, self.sets)
        self.assertEqual(open(out, "rb").read(), first)
        shutil.rmtree(self.set_dir)
        self.assertTrue(sets.unpack(self.set_dir, self.data, self.sets))
        for f, b in self.files.items():
            self.assertEqual(open(os.path.join(self.set_dir, f), "rb").read(), b)
        self.assertEqual(json.load(open(os.path.join(self.set_dir, "truth.json"))), self.truth)
        self.assertFalse(sets.unpack(self.set_dir, self.data, self.sets))  # already there: left alone
        self.assertFalse(any(n.startswith(".unpack") for n in os.listdir(self.data)))

    def test_an_incomplete_set_is_never_packed(self):
        os.remove(os.path.join(self.set_dir, "0001.jpg"))
        with self.assertRaises(SystemExit):
            sets.pack(self.set_dir, self.data, self.sets)
        os.remove(os.path.join(self.set_dir, "truth.json"))
        with self.assertRaises(SystemExit):
            sets.pack(self.set_dir, self.data, self.sets)

    def test_an_altered_archive_is_refused(self):
        out, _ = sets.pack(self.set_dir, self.data, self.sets)
        shutil.rmtree(self.set_dir)
        with open(out, "ab") as f:
            f.write(b"\0")
        with self.assertRaises(SystemExit):
            sets.unpack(self.set_dir, self.data, self.sets)
        self.assertFalse(os.path.exists(os.path.join(self.set_dir, "truth.json")))

    def test_a_set_without_an_archive_says_so(self):
        with self.assertRaises(SystemExit):
            sets.unpack(os.path.join(self.data, "render3", "tuning"), self.data, self.sets)


if __name__ == "__main__":
    unittest.main()
