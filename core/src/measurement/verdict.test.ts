import { describe, expect, it } from "vitest";
import {
  CALIBRATED_VERDICT_POLICY,
  DEFAULT_REASON_THRESHOLDS,
  DEFAULT_VERDICT_POLICY,
  FRAME_MESSAGES,
  frameMessage,
  frameMessages,
  judgePhoto as judgeUnder,
  qualityMargin,
  QUALITY_REASON_MESSAGES,
  QUALITY_REASONS,
  REFER_WHEN_UNSURE_POLICY,
  REFERRAL_CAUSES,
  SHIPPED_VERDICT_POLICY,
  VERDICT_POLICY_0_5_0,
  type GeometricFindings,
  type ReasonThresholds,
  type VerdictPolicy,
} from "./verdict.ts";

const clean = { headFound: true, headTouchesFrame: false, noseFound: true };
const low = [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1];
/** ADR 0039's verdict, as 0.5.0 shipped it: the tests below pin it down whatever the default policy is. */
const judgePhoto = (p: ArrayLike<number>, f: GeometricFindings, t: ReasonThresholds = DEFAULT_REASON_THRESHOLDS) => judgeUnder(p, f, t, VERDICT_POLICY_0_5_0);

describe("judgePhoto (0.5.0's policy, ADR 0039)", () => {
  it("accepts a photo no reason flags", () => {
    expect(judgePhoto(low, clean)).toEqual({ outcome: "accept", accepted: true, reasons: [], doubts: [] });
  });

  it("names each reason whose probability reaches its threshold, in the quiz's words and order", () => {
    const p = [0.9, 0.1, 0.1, 0.1, 0.1, 0.5, 0.1, 0.1];
    expect(judgePhoto(p, clean)).toEqual({ outcome: "retake", accepted: false, reasons: ["Image is blurry", "Hair artifact present"], doubts: [] });
  });

  it("uses the thresholds as data, per reason", () => {
    const p = [0.1, 0.1, 0.1, 0.1, 0.1, 0.3, 0.1, 0.1];
    expect(judgePhoto(p, clean).accepted).toBe(true);
    expect(judgePhoto(p, clean, { ...DEFAULT_REASON_THRESHOLDS, "Hair artifact present": 0.2 }).outcome).toBe("retake");
  });

  it("rejects when the geometry finds no head, a cut-off head or no nose", () => {
    const incomplete = "Head contour is incomplete (obstructed by hand, finger, or outside the frame)";
    expect(judgePhoto(low, { ...clean, headFound: false }).reasons).toEqual([incomplete]);
    expect(judgePhoto(low, { ...clean, headTouchesFrame: true }).reasons).toEqual([incomplete]);
    expect(judgePhoto(low, { ...clean, headObstructed: true }).reasons).toEqual([incomplete]);
    expect(judgePhoto(low, { ...clean, noseFound: false }).reasons).toEqual(["No nose visible"]);
    // The model's reason and the geometry's agree: said once.
    expect(judgePhoto([0.1, 0.1, 0.9, 0.1, 0.1, 0.1, 0.1, 0.1], { ...clean, headTouchesFrame: true }).reasons).toEqual([incomplete]);
  });

  it("does not add 'No nose visible' to a back view", () => {
    const backView = [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.95];
    expect(judgePhoto(backView, { ...clean, noseFound: false }).reasons).toEqual(["No nose, back view"]);
  });

  it("refers a photo whose deciding probability lies in the middle band, on either side of the threshold", () => {
    for (const p of [0.46, 0.55, 0.6]) {
      const verdict = judgePhoto([0.1, 0.1, 0.1, p, 0.1, 0.1, 0.1, 0.1], clean);
      expect(verdict.outcome).toBe("refer");
      expect(verdict.accepted).toBe(false);
      expect(verdict.doubts).toEqual([REFERRAL_CAUSES.uncertain]);
    }
    expect(judgePhoto([0.1, 0.1, 0.1, 0.44, 0.1, 0.1, 0.1, 0.1], clean).outcome).toBe("accept");
    expect(judgePhoto([0.1, 0.1, 0.1, 0.66, 0.1, 0.1, 0.1, 0.1], clean).outcome).toBe("retake");
    // one clear reason decides, whatever else is unsure
    expect(judgePhoto([0.9, 0.1, 0.1, 0.47, 0.1, 0.1, 0.1, 0.1], clean).outcome).toBe("retake");
  });

  it("refers a no-nose reason that a confident nose contradicts, but keeps other clear reasons", () => {
    const backView = [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.95];
    const verdict = judgePhoto(backView, { ...clean, noseConfidence: 0.95 });
    expect(verdict).toEqual({ outcome: "refer", accepted: false, reasons: ["No nose, back view"], doubts: [REFERRAL_CAUSES.noseContradicts] });
    expect(judgePhoto([0.1, 0.9, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1], { ...clean, noseConfidence: 0.9 }).outcome).toBe("refer");
    expect(judgePhoto(backView, { ...clean, noseConfidence: 0.6 }).outcome).toBe("retake");
    expect(judgePhoto([0.95, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.95], { ...clean, noseConfidence: 0.95 }).outcome).toBe("retake");
  });

  it("refers a photo whose turned views disagree about a reason, unless the average is clear", () => {
    const views = [low, [0.1, 0.1, 0.1, 0.1, 0.1, 0.9, 0.1, 0.1]];
    const verdict = judgePhoto([0.1, 0.1, 0.1, 0.1, 0.1, 0.3, 0.1, 0.1], { ...clean, viewProbabilities: views });
    expect(verdict.outcome).toBe("refer");
    expect(verdict.doubts).toEqual([REFERRAL_CAUSES.viewsDisagree]);
    expect(judgePhoto([0.1, 0.1, 0.1, 0.1, 0.1, 0.3, 0.1, 0.1], { ...clean, viewProbabilities: [low, low] }).outcome).toBe("accept");
    expect(judgePhoto([0.1, 0.1, 0.1, 0.1, 0.1, 0.8, 0.1, 0.1], { ...clean, viewProbabilities: views }).outcome).toBe("retake");
    // one view of four against the other three is noise, not disagreement
    const oneOfFour = [low, low, low, [0.1, 0.1, 0.1, 0.1, 0.1, 0.9, 0.1, 0.1]];
    expect(judgePhoto([0.1, 0.1, 0.1, 0.1, 0.1, 0.3, 0.1, 0.1], { ...clean, viewProbabilities: oneOfFour }).outcome).toBe("accept");
  });

  it("asks for a retake, not a reviewer, when the geometry finds the head cut or covered", () => {
    expect(judgePhoto([0.1, 0.1, 0.1, 0.5, 0.1, 0.1, 0.1, 0.1], { ...clean, headTouchesFrame: true }).outcome).toBe("retake");
  });

  it("refuses a quality vector of the wrong length", () => {
    expect(() => judgePhoto([0.1], clean)).toThrow(RangeError);
  });

  it("ranks photos by their worst reason", () => {
    expect(qualityMargin(low)).toBeCloseTo(0.2, 9);
    expect(qualityMargin([0.1, 0.1, 0.1, 0.45, 0.1, 0.1, 0.1, 0.1])).toBeCloseTo(0.9, 9);
    expect(QUALITY_REASONS).toHaveLength(8);
  });
});

describe("frameMessage", () => {
  it("says a referred frame without a named reason is unsure, not headless", () => {
    const unsure = judgePhoto([0.1, 0.1, 0.1, 0.47, 0.1, 0.1, 0.1, 0.1], clean);
    expect(unsure.outcome).toBe("refer");
    expect(frameMessage({ ...unsure, verdict: unsure.outcome })).toBe(FRAME_MESSAGES.unsure);
    expect(frameMessage({ accepted: false, verdict: "retake", reasons: [] })).toBe(FRAME_MESSAGES.noHead);
    expect(frameMessage({ accepted: false, verdict: "retake", reasons: ["Image is blurry"] })).toBe("Image is blurry");
    expect(frameMessage({ accepted: true, verdict: "accept", reasons: [] })).toBe(FRAME_MESSAGES.good);
  });
});

describe("frameMessages", () => {
  it("gives the hint's parts, each a catalogued message, that frameMessage joins as before", () => {
    const two = { accepted: false, verdict: "retake" as const, reasons: ["Image is blurry", "No nose visible"] as const };
    expect(frameMessages(two)).toEqual(["Image is blurry", "No nose visible"]);
    expect(frameMessage(two)).toBe("Image is blurry; No nose visible");
    expect(frameMessages({ accepted: true, verdict: "accept", reasons: [] })).toEqual([FRAME_MESSAGES.good]);
    // Every reason has its catalogue key, in the model's order.
    expect(Object.values(QUALITY_REASON_MESSAGES)).toEqual([...QUALITY_REASONS]);
  });
});

describe("judgePhoto under a calibrated policy (issue 45, ADR 0153)", () => {
  const every = (ratio: number) => Object.fromEntries(QUALITY_REASONS.map((r) => [r, ratio])) as VerdictPolicy["retakeRatio"];
  const policy: VerdictPolicy = {
    retakeRatio: every(1.6),
    missingNoseRefers: true,
    obstructedRefers: true,
    plausible: { ci: [65, 105], noseAlong: [0.85, 1.6], maxAxisDisagreementDeg: 25 },
  };
  const judge = (p: number[], f: GeometricFindings = clean) => judgeUnder(p, f, DEFAULT_REASON_THRESHOLDS, policy);
  const measured = (ci: number, noseAlong = 1.1, axisDisagreementDeg: number | null = 3) => ({ ...clean, measurement: { ci, noseAlong, axisDisagreementDeg } });

  it("asks for a retake only from the fitted confidence up, and refers a reason below it", () => {
    expect(judge([0.1, 0.1, 0.1, 0.7, 0.1, 0.1, 0.1, 0.1]).outcome).toBe("refer");
    expect(judge([0.1, 0.1, 0.1, 0.7, 0.1, 0.1, 0.1, 0.1]).doubts).toEqual([REFERRAL_CAUSES.uncertain]);
    expect(judge([0.1, 0.1, 0.1, 0.8, 0.1, 0.1, 0.1, 0.1]).outcome).toBe("retake");
    // the same photo under the shipped policy was a retake
    expect(judgePhoto([0.1, 0.1, 0.1, 0.7, 0.1, 0.1, 0.1, 0.1], clean).outcome).toBe("retake");
  });

  it("refers a missing nose or a bitten outline the model does not name clearly, and retakes one it does", () => {
    expect(judge(low, { ...clean, noseFound: false }).outcome).toBe("refer");
    expect(judge([0.1, 0.95, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1], { ...clean, noseFound: false }).outcome).toBe("retake");
    expect(judge(low, { ...clean, headObstructed: true }).outcome).toBe("refer");
    expect(judge([0.1, 0.1, 0.9, 0.1, 0.1, 0.1, 0.1, 0.1], { ...clean, headObstructed: true }).outcome).toBe("retake");
    // a head cut by the frame is a fact the parent can fix: still a retake
    expect(judge(low, { ...clean, headTouchesFrame: true }).outcome).toBe("retake");
    expect(judge(low, { ...clean, headFound: false }).outcome).toBe("retake");
  });

  it("never accepts a measurement no infant head gives: refers it", () => {
    expect(judge(low, measured(84)).outcome).toBe("accept");
    for (const f of [measured(118), measured(60), measured(84, 0.3), measured(84, 2.2), measured(84, 1.1, 170)]) {
      const v = judge(low, f);
      expect(v.outcome).toBe("refer");
      expect(v.doubts).toEqual([REFERRAL_CAUSES.implausible]);
    }
    // a whole photo without a nose says nothing about the axis
    expect(judge(low, measured(84, 1.1, null)).outcome).toBe("accept");
    // a retake stays a retake: the parent is asked for a photo either way
    expect(judge([0.95, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1], measured(118)).outcome).toBe("retake");
  });

  it("keeps referring photos whose views split, whatever its retake ratio", () => {
    // one view at 0.7 (1.4 x the threshold: clear for the views' test, below this policy's retake ratio)
    const views = [low, [0.1, 0.1, 0.1, 0.1, 0.1, 0.7, 0.1, 0.1]];
    const v = judge([0.1, 0.1, 0.1, 0.1, 0.1, 0.3, 0.1, 0.1], { ...clean, viewProbabilities: views });
    expect(v.outcome).toBe("refer");
    expect(v.doubts).toEqual([REFERRAL_CAUSES.viewsDisagree]);
  });

  it("is what judgePhoto applies by default, and the calibrated policy refers implausible measurements", () => {
    expect(judgeUnder(low, measured(84))).toEqual(judgeUnder(low, measured(84), DEFAULT_REASON_THRESHOLDS, DEFAULT_VERDICT_POLICY));
    expect(judgeUnder(low, measured(120), DEFAULT_REASON_THRESHOLDS, CALIBRATED_VERDICT_POLICY).outcome).toBe("refer");
    expect(judgeUnder(low, measured(84, 0.5), DEFAULT_REASON_THRESHOLDS, CALIBRATED_VERDICT_POLICY).outcome).toBe("refer");
    // a retake from 0.95, not from 0.65
    expect(judgeUnder([0.1, 0.1, 0.1, 0.9, 0.1, 0.1, 0.1, 0.1], clean, DEFAULT_REASON_THRESHOLDS, CALIBRATED_VERDICT_POLICY).outcome).toBe("refer");
    expect(judgeUnder([0.1, 0.1, 0.1, 0.96, 0.1, 0.1, 0.1, 0.1], clean, DEFAULT_REASON_THRESHOLDS, CALIBRATED_VERDICT_POLICY).outcome).toBe("retake");
    expect(judgeUnder(low, measured(120), DEFAULT_REASON_THRESHOLDS, VERDICT_POLICY_0_5_0).outcome).toBe("accept");
  });

  it("ships 'refer when unsure' (ADR 0174): a retake only for a clear reason, a doubt to the reviewers, the same accepts as 0.5.0", () => {
    expect(SHIPPED_VERDICT_POLICY).toBe(REFER_WHEN_UNSURE_POLICY);
    expect(DEFAULT_VERDICT_POLICY).toBe(SHIPPED_VERDICT_POLICY);
    const shipped = (p: ArrayLike<number>, f: GeometricFindings) => judgeUnder(p, f, DEFAULT_REASON_THRESHOLDS, SHIPPED_VERDICT_POLICY);
    const was = (p: ArrayLike<number>, f: GeometricFindings) => judgeUnder(p, f, DEFAULT_REASON_THRESHOLDS, VERDICT_POLICY_0_5_0);
    const tilted = (q: number) => [0.1, 0.1, 0.1, q, 0.1, 0.1, 0.1, 0.1];
    // 0.5.0 asked for a retake from 0.65; now a tilt of 0.9 or 0.99 goes to the reviewers, from 0.995 it is clear
    for (const q of [0.7, 0.9, 0.99]) {
      expect(was(tilted(q), clean).outcome).toBe("retake");
      expect(shipped(tilted(q), clean).outcome).toBe("refer");
    }
    expect(shipped(tilted(0.999), clean)).toMatchObject({ outcome: "retake", reasons: ["Head is tilted (cheek asymmetry)"] });
    // no nose found and none named clearly: referred, not a retake the parent cannot act on
    expect(was(low, { ...clean, noseFound: false }).outcome).toBe("retake");
    expect(shipped(low, { ...clean, noseFound: false }).outcome).toBe("refer");
    // no plausibility bound: a measurement 0.5.0 accepted is still accepted (the ship rule's "accepted" may not fall)
    expect(shipped(low, measured(120)).outcome).toBe("accept");
    expect(shipped(low, measured(84))).toEqual(was(low, measured(84)));
  });
});
