"""Summaries of `generalisation.bench.ts --rows` files (models/head-contour/lab/0125).

    /usr/bin/python3 rows_report.py measured ROWS.jsonl ...   per file: good photos accepted, said blurry,
        and CI / CVAI MAE over every good photo the pipeline measured, whatever its verdict
    /usr/bin/python3 rows_report.py incomplete ROWS.jsonl     where "Head contour is incomplete" on good
        photos came from: the quality head's probability, a bitten outline (solidity < 0.97), or the rest
        (the outline touches the frame, or no outline); solidity is read off the
        outline the rows give, after the ears' bulges are trimmed
"""
import json
import sys

import cv2
import numpy as np

from render import REASONS  # model.json's order: the rows' truth_reasons and quality probabilities

BLURRY_INDEX, INCOMPLETE_INDEX = 0, 2
BLURRY, INCOMPLETE = REASONS[BLURRY_INDEX], REASONS[INCOMPLETE_INDEX]
MIN_SOLIDITY = 0.97  # core/src/measurement/analyze.ts minSolidity
INCOMPLETE_THRESHOLD = 0.5  # core/src/measurement/verdict.ts DEFAULT_REASON_THRESHOLDS


def read(path):
    return [json.loads(line) for line in open(path)]


def measured(path):
    rows = read(path)
    good = [r for r in rows if not r["truth_reasons"]]
    accepted = sum(1 for r in good if r["verdict"] == "accept")
    blurry = sum(1 for r in good if BLURRY in r["reasons"])
    m = [r for r in good if r["ci"] is not None]
    ci = np.mean([abs(r["ci"] - r["ci_true"]) for r in m])
    cvai = np.mean([abs(r["cvai"] - r["cvai_true"]) for r in m])
    truly = [r for r in rows if BLURRY_INDEX in r["truth_reasons"]]
    held = sum(1 for r in truly if r["verdict"] != "accept")
    return (f"good accepted {accepted}/{len(good)}, said blurry {blurry}; measured {len(m)}: CI MAE {ci:.2f}, "
            f"CVAI MAE {cvai:.2f}; blurry photos held back {held}/{len(truly)}")


def solidity(outline):
    o = np.array(outline, dtype=np.float32)
    hull = abs(cv2.contourArea(cv2.convexHull(o)))
    return abs(cv2.contourArea(o)) / hull if hull > 0 else 0.0


def incomplete(path):
    counts = {}
    for r in read(path):
        if r["truth_reasons"] or INCOMPLETE not in r["reasons"]:
            continue
        why = []
        if r["quality"][INCOMPLETE_INDEX] >= INCOMPLETE_THRESHOLD:
            why.append("quality head")
        if r["outline"] and len(r["outline"]) >= 3 and solidity(r["outline"]) < MIN_SOLIDITY:
            why.append("bitten outline")
        key = " + ".join(why) or "frame or no outline"
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))


if __name__ == "__main__":
    report = {"measured": measured, "incomplete": incomplete}.get(sys.argv[1] if len(sys.argv) > 1 else "")
    if not report or len(sys.argv) < 3:
        sys.exit(__doc__)
    for p in sys.argv[2:]:
        print(f"{p}: {report(p)}")
