#!/usr/bin/env bash
# head-contour 0.6 on render3 + render.py's 0.6 scenes (issue 45 item 3): resumable across sessions.
#   bash models/head-contour/render3/train06.sh            (run it again next session to go on)
# 1. render3 training shards, seed 330001 (never a judged seed, docs/adr/0152), shard by shard; the Blender
#    cache and shards live in data/ (git-ignored); every complete 100 scenes are also packed developed into
#    sets/render3-train-330001-KKKK.tar.gz (commit them: about 1.5 MB each, see sets/README.md), which the next
#    session unpacks instead of rendering again;
# 2. render.py's 0.6 shards (CROWN_SCENES=0.6, seed 1), as in checkpoints/README.md;
# 3. stage 1 (maps) from 0.5.0's weights, a step-based schedule checkpointed every few minutes; at the end of
#    each session the checkpoint is copied to checkpoints/r3-0.6-stage1.pt (commit it: data/ does not survive);
# 4. stage 2 (quality head), resumable likewise.
# Nothing is installed: the result is judged against 0.5.0 by tests/bench/families.bench.ts on every family's
# held-out set (ADR 0152's ship rule) before it may ship.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
PY=/usr/bin/python3
R3_SCENES="${R3_SCENES:-2000}"        # render3 training scenes (3 views each)
PY_SCENES="${PY_SCENES:-2600}"        # render.py 0.6 scenes
STEPS="${STEPS:-9000}"
SESSION_MINUTES="${SESSION_MINUTES:-50}"
WORK="$HERE/data/r3-06"
CKPT="$HERE/checkpoints/r3-0.6-stage1.pt"
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1   # one thread trains faster on a shared machine (models/head-contour/lab/0081)
mkdir -p "$WORK/run" "$WORK/quality"
nice -n 19 $PY render3/build.py shards "$WORK/shards-r3" "$R3_SCENES" 330001
CROWN_SCENES=0.6 nice -n 15 $PY data.py shards "$WORK/shards-06" "$PY_SCENES" 1 1
if [ ! -f "$WORK/run/checkpoint.pt" ] && [ -f "$CKPT" ]; then cp "$CKPT" "$WORK/run/checkpoint.pt"; fi
if [ ! -f "$WORK/run/train-info.json" ]; then
  rc=0
  nice -n 15 $PY train.py "$WORK/shards-r3,$WORK/shards-06" "$WORK/run" --steps "$STEPS" --resume --session-minutes "$SESSION_MINUTES" \
    --seed 45 --qv 1 --batch 12 --lr 1e-3 --warmup 100 --threads 1 --checkpoint-minutes 4 --init-onnx head-contour.onnx || rc=$?
  if [ -f "$WORK/run/checkpoint.pt" ]; then cp "$WORK/run/checkpoint.pt" "$CKPT"; fi
  if [ $rc -ne 0 ]; then [ $rc -eq 75 ] && echo "[r3-0.6] stage 1 paused: commit $CKPT, run again to resume"; exit $rc; fi
fi
if [ ! -f "$WORK/quality/quality-info.json" ]; then
  nice -n 15 $PY fit_quality.py "$WORK/run/model.pt" "$WORK/shards-r3,$WORK/shards-06" "$WORK/quality" --seed 45 --threads 1 --qv 4 --epochs 14 \
    --resume --session-minutes "$SESSION_MINUTES" || { rc=$?; [ $rc -eq 75 ] && echo "[r3-0.6] stage 2 paused: run again"; exit $rc; }
fi
echo "[r3-0.6] trained: $WORK/quality/head-contour.onnx; judge it with tests/bench/families.bench.ts (CROWN_MODEL=...) before anything ships"
