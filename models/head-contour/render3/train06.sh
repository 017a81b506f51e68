#!/usr/bin/env bash
# head-contour 0.6 on render3 + render.py's scenes (issue 45 item 3), resumable across sessions: R3c's recipe
# (models/head-contour/lab/2026-11-29-render3-maps-r3a-r3b.md) continued on render3's 2,000 training scenes.
#   bash models/head-contour/render3/train06.sh            (run it again next session to go on)
# 1. render3 training shards, seed 330001 (never a judged seed, docs/adr/0152): the committed packs
#    sets/render3-train-330001-KKKK.tar.gz are unpacked, the rest rendered and packed (commit new packs);
# 2. render.py's 0.6 scenes (seed 1) and 0.5 scenes (seed 3, distilled toward 0.5.0's maps);
# 3. stage 1 from R3c's maps (checkpoints/r3c-0.6-stage1.pt), checkpointed every 4 minutes; at the end of each
#    session the checkpoint is copied to checkpoints/r3-0.6-stage1.pt (commit it: data/ does not survive);
# 4. stage 2 (quality head) on render3's scenes and the first 900 of each render.py set, resumable likewise.
# Nothing is installed: the result is read on the tuning sets, then once on held-out, against 0.5.0's rows
# (tests/bench/families.bench.ts --shipped-rows; ADR 0152's ship rule) before it may ship.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
cd "$HERE"
PY=/usr/bin/python3
R3_SCENES="${R3_SCENES:-2000}"        # render3 training scenes (3 views each)
STEPS="${STEPS:-6000}"
SESSION_MINUTES="${SESSION_MINUTES:-50}"
WORK="$HERE/data/r3-06"
CKPT="$HERE/checkpoints/r3-0.6-stage1.pt"
START="$HERE/checkpoints/r3c-0.6-stage1.pt"
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1   # one thread trains faster on a shared machine (models/head-contour/lab/0081)
mkdir -p "$WORK/run" "$WORK/quality"
nice -n 19 $PY render3/build.py shards "$WORK/shards-r3" "$R3_SCENES" 330001
CROWN_SCENES=0.6 nice -n 15 $PY data.py shards "$WORK/shards-06" 2600 1 1
CROWN_SCENES=0.5 nice -n 15 $PY data.py shards "$WORK/shards-05" 3000 3 1
# stage 2 reads the first 900 scenes of each render.py set (links, so the shards are not copied)
for s in 06 05; do
  mkdir -p "$WORK/shards-$s-first9"
  for i in 0 1 2 3 4 5 6 7 8; do ln -sf "../shards-$s/shard_000$i.npz" "$WORK/shards-$s-first9/shard_000$i.npz"; done
done
DATA="$WORK/shards-r3,$WORK/shards-r3,$WORK/shards-06,$WORK/shards-05"
if [ ! -f "$WORK/run/checkpoint.pt" ] && [ -f "$CKPT" ]; then cp "$CKPT" "$WORK/run/checkpoint.pt"; fi
if [ ! -f "$WORK/start.pt" ]; then $PY -c "import sys, torch; torch.save(torch.load(sys.argv[1])['model'], sys.argv[2])" "$START" "$WORK/start.pt"; fi
if [ ! -f "$WORK/run/train-info.json" ]; then
  rc=0
  nice -n 15 $PY train.py "$DATA" "$WORK/run" --steps "$STEPS" --resume --session-minutes "$SESSION_MINUTES" \
    --init "$WORK/start.pt" --seed 47 --qv 1 --batch 12 --lr 3e-4 --warmup 100 --threads 1 --checkpoint-minutes 4 \
    --nose-hard 2 --edge-band 24 --distill head-contour.onnx --distill-data "$WORK/shards-05" --distill-weight 3 || rc=$?
  if [ -f "$WORK/run/checkpoint.pt" ]; then cp "$WORK/run/checkpoint.pt" "$CKPT"; fi
  if [ $rc -ne 0 ]; then [ $rc -eq 75 ] && echo "[r3-0.6] stage 1 paused: commit $CKPT, run again to resume"; exit $rc; fi
fi
if [ ! -f "$WORK/quality/quality-info.json" ]; then
  nice -n 15 $PY fit_quality.py "$WORK/run/model.pt" "$WORK/shards-r3,$WORK/shards-06-first9,$WORK/shards-05-first9" "$WORK/quality" \
    --seed 45 --threads 1 --qv 4 --epochs 14 --resume --session-minutes "$SESSION_MINUTES" || { rc=$?; [ $rc -eq 75 ] && echo "[r3-0.6] stage 2 paused: run again"; exit $rc; }
fi
echo "[r3-0.6] trained: $WORK/quality/head-contour.onnx; read it on the tuning sets, then once on held-out, with"
echo "         tests/bench/families.bench.ts --shipped-rows (0.5.0's rows on the same sets) before anything ships"
