"""The calibration views quantize.py would pick from a full shard directory, rendered alone.

    CROWN_SCENES=0.6 calib_views.py OUT.npz N_SCENES SEED VIEWS

`quantize.py IN OUT DIR --views V` loads every shard of DIR (written by `data.py shards DIR N_SCENES
SEED`: scene i in shard i // 100, three views per scene in order) and calibrates on the views
`np.sort(default_rng(0).choice(3 * N_SCENES, V, replace=False))`. Those views are spread over all the
shards, but they need only about V scenes: this renders just those scenes (scene i with the seed
data.py gives it, `SeedSequence(SEED).spawn(N_SCENES)[i]`, which does not depend on N_SCENES) and
writes the picked views, in the same order, to one .npz. `quantize.py IN OUT OUT.npz --views V` then
calibrates on exactly the same views as on the full directory (all V views of the file are picked,
in order), without rendering the other scenes.
"""
import sys
import time

import cv2
import numpy as np

from data import _pack, scene_samples

VIEWS_PER_SCENE = 3  # the letterboxed photo and two head crops (data.shard_worker: n_crops 2)


def picked_views(n_scenes, views):
    return np.sort(np.random.default_rng(0).choice(VIEWS_PER_SCENE * n_scenes, size=min(views, VIEWS_PER_SCENE * n_scenes), replace=False))


def main():
    out, n, seed, views = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    cv2.setNumThreads(1)
    pick = picked_views(n, views)
    ss = np.random.SeedSequence(seed)
    seeds = [int(s.generate_state(1)[0]) for s in ss.spawn(n)]
    t, cache, flat = time.time(), {}, []
    for v in pick:
        i = int(v) // VIEWS_PER_SCENE
        if i not in cache:
            cache = {i: scene_samples((i, seeds[i], 2))}  # picks are sorted: one scene at a time
        flat.append(cache[i][int(v) % VIEWS_PER_SCENE])
    np.savez(out, **_pack(flat))
    print(f"{out}: {len(flat)} views of {len(set(int(v) // VIEWS_PER_SCENE for v in pick))} scenes (of {n}, seed {seed}) in {time.time() - t:.0f}s", flush=True)


if __name__ == "__main__":
    main()
