#!/usr/bin/env bash
# Rebuild the head-contour model from scratch: rendered data -> training -> ONNX -> metrics -> samples/quiz.
#   bash models/head-contour/build.sh            (defaults below: 0.5.0's recipe, a wall-clock budget)
#   SEED=1 SCENES=3200 MINUTES=40 bash models/head-contour/build.sh
#   CROWN_SCENES=0.6 bash models/head-contour/build.sh   (render.py scenes without the shortcuts of issue 18)
# Resumable builds (models/head-contour/lab/0081): a step-based schedule that can stop and go on across sessions.
#   CROWN_SCENES=0.6 STEPS=9000 SESSION_MINUTES=60 bash models/head-contour/build.sh
#   ... run the same command again to go on: rendered shards are kept, stage 1 resumes from
#   $WORK/run/checkpoint.pt, stage 2 from $WORK/quality/quality-checkpoint.pt; exit code 75 means
#   "session over, not finished". INIT_ONNX=path/to/head-contour.onnx fine-tunes from a shipped model.
#   The trained model stays in $WORK/quality until the same command runs with SHIP=1 (measure it first).
# Needs the Debian Python (/usr/bin/python3 with torch, numpy, opencv) and ffmpeg. CPU only, 2 threads.
# Trains on render.py only: render2/ (the second renderer family) is for measuring generalisation and
# must never feed training (docs/adr/0040-second-renderer-family-never-trained-on.md).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PY=/usr/bin/python3
SEED="${SEED:-1}"                 # training data + training seed
EVAL_SEED="${EVAL_SEED:-900001}"  # held-out evaluation set, never used in training
SCENES="${SCENES:-2600}"          # rendered training photos (3 views each), per shard set
EVAL_SCENES="${EVAL_SCENES:-600}"
MINUTES="${MINUTES:-50}"          # stage-1 wall-clock budget when STEPS is not set (stage 2 takes about 8 minutes)
STEPS="${STEPS:-}"                # stage-1 steps: a step-based, checkpointed, resumable schedule
SESSION_MINUTES="${SESSION_MINUTES:-0}"  # with STEPS: stop each stage after this long (0: run to the end)
LR="${LR:-2.5e-3}"
INIT_ONNX="${INIT_ONNX:-}"        # with STEPS: start stage 1 from this shipped model's weights
VERSION="${VERSION:-0.5.0}"       # model.json version
WORK="${WORK:-$HERE/data}"        # scratch (git-ignored)
THREADS="${THREADS:-2}"          # 1 trains faster on a machine busy with other jobs (models/head-contour/lab/0081)
export OMP_NUM_THREADS=$THREADS MKL_NUM_THREADS=$THREADS

mkdir -p "$WORK/run" "$WORK/quality"
cd "$HERE"
echo "[build] rendering $SCENES training scenes (seed $SEED) as shards (shards already written are kept)"
$PY data.py shards "$WORK/shards" "$SCENES" "$SEED"
echo "[build] rendering $SCENES more scenes (seed $((SEED + 1)))"
$PY data.py shards "$WORK/shards2" "$SCENES" "$((SEED + 1))"
if [ -z "$STEPS" ] || [ ! -f "$WORK/eval/truth.json" ]; then
  echo "[build] rendering $EVAL_SCENES held-out scenes (seed $EVAL_SEED)"
  $PY data.py eval "$WORK/eval" "$EVAL_SCENES" "$EVAL_SEED"
fi
if [ -z "$STEPS" ]; then
  echo "[build] stage 1: training the maps (mask, nose, sticker) for $MINUTES minutes on both shard sets"
  rm -f "$WORK/run/training-log.txt" "$WORK/quality/training-log.txt"
  $PY train.py "$WORK/shards,$WORK/shards2" "$WORK/run" --minutes "$MINUTES" --seed "$SEED" --qv 1 --batch 12 --lr "$LR" --threads 2
  echo "[build] stage 2: fitting the quality head (conv pyramid + pooled statistics) on frozen features"
  $PY fit_quality.py "$WORK/run/model.pt" "$WORK/shards,$WORK/shards2" "$WORK/quality" --seed "$SEED" --threads 2 --qv 4 --epochs 14
else
  # resumable: each stage stops after SESSION_MINUTES with a checkpoint (exit 75) and goes on next time
  if [ ! -f "$WORK/run/train-info.json" ]; then
    echo "[build] stage 1: $STEPS steps (resumable, checkpoint $WORK/run/checkpoint.pt)"
    $PY train.py "$WORK/shards,$WORK/shards2" "$WORK/run" --steps "$STEPS" --resume --session-minutes "$SESSION_MINUTES" \
      --seed "$SEED" --qv 1 --batch 12 --lr "$LR" --threads "$THREADS" ${INIT_ONNX:+--init-onnx "$INIT_ONNX"} || {
      rc=$?; [ $rc -eq 75 ] && echo "[build] stage 1 paused: run the same command again to resume"; exit $rc; }
  fi
  if [ ! -f "$WORK/quality/quality-info.json" ]; then
    echo "[build] stage 2: quality head (resumable, checkpoint $WORK/quality/quality-checkpoint.pt)"
    $PY fit_quality.py "$WORK/run/model.pt" "$WORK/shards,$WORK/shards2" "$WORK/quality" --seed "$SEED" --threads "$THREADS" --qv 4 --epochs 14 \
      --resume --session-minutes "$SESSION_MINUTES" || {
      rc=$?; [ $rc -eq 75 ] && echo "[build] stage 2 paused: run the same command again to resume"; exit $rc; }
  fi
  if [ "${SHIP:-0}" != 1 ]; then
    # issue 18's rule: a new model replaces the shipped one only after it is measured against it
    echo "[build] trained: $WORK/quality/head-contour.onnx. Measure it against the shipped model"
    echo "        (tests/bench/generalisation.bench.ts on render2's and render.py's held-out sets),"
    echo "        then run the same command with SHIP=1 VERSION=... to install it, metrics, samples and quiz pools."
    exit 0
  fi
fi
cp "$WORK/quality/head-contour.onnx" "$HERE/head-contour.onnx"
cat "$WORK/run/training-log.txt" "$WORK/quality/training-log.txt" > "$HERE/training-log.txt"
# train-info.json: both stages' details; the model's parameters and size are the exported file's
$PY -c '
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:3])
two["maps_model"] = "stage 1 above"
json.dump({"version": sys.argv[4], "params": two["params"], "onnx_bytes": two["onnx_bytes"], "qv": two["qv"],
           "stage1": one, "stage2": two}, open(sys.argv[3], "w"), indent=1)
' "$WORK/run/train-info.json" "$WORK/quality/quality-info.json" "$HERE/train-info.json" "$VERSION"
echo "[build] evaluating"
$PY evaluate.py "$WORK/eval" "$WORK/quality/model.pt" "$HERE/metrics.json" --onnx "$HERE/head-contour.onnx" --qv 4
$PY manifest.py "$HERE" --seed "$SEED" --version "$VERSION"
node "$HERE/check-onnx.cjs" "$HERE/head-contour.onnx"
echo "[build] samples and quiz pools"
$PY make_assets.py samples "$HERE/samples"
$PY make_assets.py quiz "$ROOT/apps/web/public/quiz"
echo "[build] done: $HERE/head-contour.onnx, $HERE/model.json, $HERE/metrics.json"
