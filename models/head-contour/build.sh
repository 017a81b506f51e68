#!/usr/bin/env bash
# Rebuild the head-contour model from scratch: rendered data -> training -> ONNX -> metrics -> samples/quiz.
#   bash models/head-contour/build.sh            (defaults below)
#   SEED=1 SCENES=3200 MINUTES=40 bash models/head-contour/build.sh
# Needs the Debian Python (/usr/bin/python3 with torch, numpy, opencv) and ffmpeg. CPU only, 2 threads.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PY=/usr/bin/python3
SEED="${SEED:-1}"                 # training data + training seed
EVAL_SEED="${EVAL_SEED:-900001}"  # held-out evaluation set, never used in training
SCENES="${SCENES:-3200}"          # rendered training photos (3 views each)
EVAL_SCENES="${EVAL_SCENES:-600}"
MINUTES="${MINUTES:-40}"          # training wall-clock budget
WORK="${WORK:-$HERE/data}"        # scratch (git-ignored)
export OMP_NUM_THREADS=2 MKL_NUM_THREADS=2

mkdir -p "$WORK/run"
cd "$HERE"
echo "[build] rendering $SCENES training scenes (seed $SEED)"
$PY data.py train "$WORK/train.npz" "$SCENES" "$SEED"
echo "[build] rendering $EVAL_SCENES held-out scenes (seed $EVAL_SEED)"
$PY data.py eval "$WORK/eval" "$EVAL_SCENES" "$EVAL_SEED"
echo "[build] training for $MINUTES minutes"
rm -f "$WORK/run/training-log.txt"
$PY train.py "$WORK/train.npz" "$WORK/run" --minutes "$MINUTES" --seed "$SEED"
cp "$WORK/run/head-contour.onnx" "$HERE/head-contour.onnx"
cp "$WORK/run/training-log.txt" "$HERE/training-log.txt"
cp "$WORK/run/train-info.json" "$HERE/train-info.json"
echo "[build] evaluating"
$PY evaluate.py "$WORK/eval" "$WORK/run/model.pt" "$HERE/metrics.json" --onnx "$HERE/head-contour.onnx"
$PY manifest.py "$HERE" --seed "$SEED"
echo "[build] samples and quiz pools"
$PY make_assets.py samples "$HERE/samples"
$PY make_assets.py quiz "$ROOT/apps/web/public/quiz"
echo "[build] done: $HERE/head-contour.onnx, $HERE/model.json, $HERE/metrics.json"
