import { describe, expect, it } from "vitest";
import { analyzePhoto, insideOutline } from "./analyze.ts";
import { CALIBRATED_VERDICT_POLICY, REFERRAL_CAUSES, SHIPPED_VERDICT_POLICY } from "./verdict.ts";
import { measureHead } from "./geometry.ts";
import { sectionMillimetresPerPixel } from "./scale.ts";
import type { Point, RgbImage } from "./image.ts";
import { Effect } from "effect";
import { HeadContourModel, type HeadContourOutputs } from "./model.ts";

/**
 * A stand-in for the network that reads colours: skin is head, pure green is the nose tip,
 * white is the sticker. It lets the two-pass pipeline be checked against analytic truth.
 */
const SKIN: [number, number, number] = [220, 170, 140];
const colourModel = (quality: number[] = [-4, -4, -4, -4, -4, -4, -4, -4]): HeadContourModel & { calls: number } => ({
  calls: 0,
  async run(input, n) {
    this.calls++;
    const plane = input.length / n / 3;
    const mask = new Float32Array(n * plane);
    const nose = new Float32Array(n * plane);
    const sticker = new Float32Array(n * plane);
    for (let b = 0; b < n; b++) {
      for (let i = 0; i < plane; i++) {
        const r = input[b * 3 * plane + i]!;
        const g = input[b * 3 * plane + plane + i]!;
        const bl = input[b * 3 * plane + 2 * plane + i]!;
        // The 0.5 level sits where half the pixel is skin (or sticker, which lies on the head).
        mask[b * plane + i] = 30 * (r / (SKIN[0] / 255) - 0.5);
        nose[b * plane + i] = 30 * (g - r - bl - 0.3);
        sticker[b * plane + i] = 30 * (Math.min(r, g, bl) - (1 + SKIN[2] / 255) / 2);
      }
    }
    for (const map of [mask, sticker]) for (let b = 0; b < n; b++) soften(map.subarray(b * plane, (b + 1) * plane), Math.sqrt(plane));
    return { mask, nose, sticker, quality: Float32Array.from({ length: 8 * n }, (_, k) => quality[k % 8]!) };
  },
});

/** The colour-reading model with its outputs changed; `pass` counts the model's runs from 0. */
const alteredModel = (change: (out: HeadContourOutputs, pass: number) => HeadContourOutputs): HeadContourModel => {
  const inner = colourModel();
  let pass = 0;
  return { run: async (input, n) => change(await inner.run(input, n), pass++) };
};

/** A network's maps change smoothly across an edge; blur the colour-read ones the same way (σ = 1 px). */
const soften = (map: Float32Array, size: number): void => {
  const kernel = [-3, -2, -1, 0, 1, 2, 3].map((d) => Math.exp(-(d * d) / 2));
  const total = kernel.reduce((a, b) => a + b, 0);
  const copy = new Float32Array(map.length);
  for (const [from, to, step, across] of [[map, copy, 1, size], [copy, map, size, 1]] as const) {
    for (let line = 0; line < size; line++) for (let i = 0; i < size; i++) {
      let sum = 0;
      kernel.forEach((w, k) => {
        const j = Math.min(size - 1, Math.max(0, i + k - 3));
        sum += w * from[line * across + j * step]!;
      });
      to[line * across + i * step] = sum / total;
    }
  }
};

interface Scene {
  readonly width: number;
  readonly height: number;
  readonly centre: Point;
  readonly halfLength: number;
  readonly halfWidth: number;
  readonly shear: number;
  /** Direction of the nose, radians in image coordinates (0 = +x). */
  readonly facing: number;
  readonly stickerRadius?: number;
  readonly nose?: boolean;
  /** A finger tip (not skin-coloured for the stand-in) over this photo point. */
  readonly finger?: Point;
}

/** The scene's head in the head frame: (across, along) with along towards the nose. */
const headPoint = (s: Scene, across: number, along: number): Point => {
  const u = { x: Math.cos(s.facing), y: Math.sin(s.facing) };
  const v = { x: -u.y, y: u.x };
  const a = across + s.shear * along;
  return { x: s.centre.x + u.x * along + v.x * a, y: s.centre.y + u.y * along + v.y * a };
};

const truthOutline = (s: Scene): Point[] =>
  Array.from({ length: 2000 }, (_, i) => {
    const t = (2 * Math.PI * i) / 2000;
    return headPoint(s, s.halfWidth * Math.cos(t), s.halfLength * Math.sin(t));
  });

/** Render with 4 × 4 supersampling so edges are anti-aliased like a photo. */
const render = (s: Scene): RgbImage => {
  const nose = headPoint(s, 0, s.halfLength * 1.06);
  const noseRadius = s.halfLength * 0.04;
  const u = { x: Math.cos(s.facing), y: Math.sin(s.facing) };
  const v = { x: -u.y, y: u.x };
  const isHead = (p: Point): boolean => {
    const dx = p.x - s.centre.x;
    const dy = p.y - s.centre.y;
    const along = dx * u.x + dy * u.y;
    const across = dx * v.x + dy * v.y - s.shear * along;
    return (across / s.halfWidth) ** 2 + (along / s.halfLength) ** 2 <= 1;
  };
  const data = new Uint8Array(s.width * s.height * 3);
  const k = 4;
  for (let y = 0; y < s.height; y++) {
    for (let x = 0; x < s.width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let j = 0; j < k; j++) for (let i = 0; i < k; i++) {
        const p = { x: x + (i + 0.5) / k, y: y + (j + 0.5) / k };
        let c: [number, number, number] = [0, 0, 60];
        if (s.finger && Math.hypot(p.x - s.finger.x, p.y - s.finger.y) <= 0.35 * s.halfWidth) c = [20, 40, 200];
        else if (s.nose !== false && Math.hypot(p.x - nose.x, p.y - nose.y) <= noseRadius) c = [0, 255, 0];
        else if (isHead(p)) c = s.stickerRadius && Math.hypot(p.x - s.centre.x, p.y - s.centre.y) <= s.stickerRadius ? [255, 255, 255] : SKIN;
        r += c[0];
        g += c[1];
        b += c[2];
      }
      const o = (y * s.width + x) * 3;
      data[o] = Math.round(r / (k * k));
      data[o + 1] = Math.round(g / (k * k));
      data[o + 2] = Math.round(b / (k * k));
    }
  }
  return { width: s.width, height: s.height, data, channels: 3 };
};

const base: Scene = { width: 640, height: 480, centre: { x: 300, y: 250 }, halfLength: 120, halfWidth: 100, shear: 0, facing: -Math.PI / 2 };

describe("analyzePhoto (two passes, with a colour-reading stand-in for the model)", () => {
  it("measures an elliptical head's CI and CVAI from the photo", async () => {
    const model = colourModel();
    const result = await analyzePhoto(render(base), model);
    expect(model.calls).toBe(2);
    expect(result.accepted).toBe(true);
    expect(result.reasons).toEqual([]);
    expect(result.ci!).toBeCloseTo((100 * 100) / 120, 0);
    expect(Math.abs(result.ci! - (100 * 100) / 120)).toBeLessThan(0.3);
    expect(result.cvai!).toBeLessThan(0.3);
    expect(result.cva_mm).toBeNull();
    expect(Math.hypot(result.centre!.x - 300, result.centre!.y - 250)).toBeLessThan(0.5);
    expect(result.apAxis!.y).toBeLessThan(-0.999);
    // The close-up looked at the head with ~70 % of its side.
    expect(result.crop!.width).toBeGreaterThan(240 / 0.7 - 6);
    expect(result.crop!.width).toBeLessThan(240 / 0.7 + 6);
  });

  it("agrees with the analytic geometry on a plagiocephalic head at any facing, and gives CVA in mm from the sticker", async () => {
    for (const facing of [0.3, 2.1, -2.6]) {
      const scene: Scene = { ...base, width: 900, height: 700, centre: { x: 430, y: 360 }, halfLength: 150, halfWidth: 130, shear: 0.1, facing, stickerRadius: 18 };
      const truth = measureHead(truthOutline(scene), headPoint(scene, 0, scene.halfLength * 1.06))!;
      const result = await analyzePhoto(render(scene), colourModel());
      expect(result.accepted).toBe(true);
      expect(Math.abs(result.ci! - truth.ci)).toBeLessThan(0.3);
      expect(Math.abs(result.cvai! - truth.cvai)).toBeLessThan(0.3);
      expect(truth.cvai).toBeGreaterThan(4);
      // The scale at the widest section, below the sticker (scale.ts), from the measured length; the
      // tolerance is the 0.36 px the diagonals may miss by.
      const mmPerPx = sectionMillimetresPerPixel(2 * result.sticker!.radius, 30, result.length!)!;
      expect(mmPerPx).toBeGreaterThan(30 / (2 * result.sticker!.radius));
      expect(Math.abs(result.cva_mm! - (truth.diagonals.a - truth.diagonals.b) * mmPerPx)).toBeLessThan(0.36 * mmPerPx);
      expect(result.sticker!.radius).toBeCloseTo(18, 0);
      expect(insideOutline(result.outline, result.sticker!.centre)).toBe(true);
    }
  });

  it("can trace the outline on probabilities instead of logits", async () => {
    const truth = (100 * 100) / 120;
    const onLogits = await analyzePhoto(render(base), colourModel(), { outlineFrom: "logits" });
    const onProbabilities = await analyzePhoto(render(base), colourModel(), { outlineFrom: "probabilities" });
    expect(Math.abs(onLogits.ci! - truth)).toBeLessThan(0.3);
    // This stand-in's logits are steep (±15 a pixel away from the edge): probabilities snap towards pixel midpoints.
    expect(Math.abs(onProbabilities.ci! - truth)).toBeLessThan(1.5);
    expect(onProbabilities.outline).not.toEqual(onLogits.outline);
  });

  it("works on a photo much larger than the model's input", async () => {
    const scene: Scene = { ...base, width: 2400, height: 1800, centre: { x: 1300, y: 800 }, halfLength: 500, halfWidth: 430, facing: 1 };
    const result = await analyzePhoto(render(scene), colourModel());
    expect(Math.abs(result.ci! - 86)).toBeLessThan(0.3);
    expect(result.length!).toBeCloseTo(1000, -1);
  });

  it("rejects a head that runs out of the frame", async () => {
    const result = await analyzePhoto(render({ ...base, centre: { x: 80, y: 250 }, facing: -Math.PI / 2 }), colourModel());
    expect(result.accepted).toBe(false);
    expect(result.reasons).toContain("Head contour is incomplete (obstructed by hand, finger, or outside the frame)");
  });

  it("rejects a head with a finger over its outline", async () => {
    const result = await analyzePhoto(render({ ...base, finger: { x: 300 + 100, y: 250 } }), colourModel());
    expect(result.accepted).toBe(false);
    expect(result.reasons).toEqual(["Head contour is incomplete (obstructed by hand, finger, or outside the frame)"]);
  });

  it("rejects a photo without a nose and does not measure it", async () => {
    const result = await analyzePhoto(render({ ...base, nose: false }), colourModel());
    expect(result.accepted).toBe(false);
    expect(result.reasons).toEqual(["No nose visible"]);
    expect(result.ci).toBeNull();
    expect(result.outline.length).toBeGreaterThan(100);
  });

  it("takes no far-away peak for the nose, and no oversized disc for the sticker", async () => {
    const size = 160;
    const model = alteredModel((out) => {
      const nose = new Float32Array(out.nose.length).fill(-10);
      nose[2 * size + 2] = 10; // a confident peak in the corner of the frame
      const sticker = Float32Array.from(out.mask); // a "sticker" as large as the head
      return { ...out, nose, sticker };
    });
    const result = await analyzePhoto(render(base), model);
    expect(result.noseTip).toBeNull();
    expect(result.reasons).toEqual(["No nose visible"]);
    const withNose = await analyzePhoto(render(base), alteredModel((out) => ({ ...out, sticker: out.mask })));
    expect(withNose.accepted).toBe(true);
    expect(withNose.sticker).toBeNull();
    expect(withNose.cva_mm).toBeNull();
  });

  it("takes the nose from the close-up only: a nose the close-up cannot see is no nose", async () => {
    // The whole photo's pass finds the nose; the close-up does not see one.
    const model = alteredModel((out, pass) => (pass === 0 ? out : { ...out, nose: new Float32Array(out.nose.length).fill(-10) }));
    const result = await analyzePhoto(render(base), model);
    expect(result.noseTip).toBeNull();
    expect(result.ci).toBeNull();
    expect(result.reasons).toEqual(["No nose visible"]);
  });

  it("refers, under a policy that checks the passes' axes, a photo whose whole-photo pass puts the nose behind the head", async () => {
    const size = 160;
    // base: the nose points up from (300, 250); the whole photo (640 x 480, letterboxed 4:1, 80 px of padding
    // above) gets a confident peak just behind the back of the head instead
    const model = () =>
      alteredModel((out, pass) => {
        if (pass !== 0) return out;
        const nose = new Float32Array(out.nose.length).fill(-10);
        nose[Math.round((250 + 130 + 80) / 4) * size + Math.round(300 / 4)] = 10;
        return { ...out, nose };
      });
    const shipped = await analyzePhoto(render(base), model(), { verdictPolicy: SHIPPED_VERDICT_POLICY, allFindings: true });
    expect(shipped.verdict).toBe("accept");
    expect(shipped.findings.measurement!.axisDisagreementDeg!).toBeGreaterThan(150);
    expect(shipped.findings.measurement!.noseAlong).toBeGreaterThan(1);
    const checking = { ...CALIBRATED_VERDICT_POLICY, plausible: { ...CALIBRATED_VERDICT_POLICY.plausible!, maxAxisDisagreementDeg: 30 } };
    const calibrated = await analyzePhoto(render(base), model(), { verdictPolicy: checking });
    expect(calibrated.verdict).toBe("refer");
    expect(calibrated.doubts).toEqual([REFERRAL_CAUSES.implausible]);
    // the calibrated policy does not check the whole photo's axis (ADR 0153), so does not trace it
    const unchecked = await analyzePhoto(render(base), model(), { verdictPolicy: CALIBRATED_VERDICT_POLICY });
    expect(unchecked.verdict).toBe("accept");
    expect(unchecked.findings.measurement!.axisDisagreementDeg).toBeNull();
    // the same photo with both passes agreeing is accepted by either policy
    const agreeing = await analyzePhoto(render(base), colourModel(), { verdictPolicy: checking });
    expect(agreeing.verdict).toBe("accept");
    expect(agreeing.findings.measurement!.axisDisagreementDeg!).toBeLessThan(5);
  });

  it("rejects a photo without a head after one pass", async () => {
    const empty: RgbImage = { width: 100, height: 80, data: new Uint8Array(100 * 80 * 3), channels: 3 };
    const model = colourModel();
    const result = await analyzePhoto(empty, model);
    expect(model.calls).toBe(1);
    expect(result.accepted).toBe(false);
    expect(result.reasons).toContain("Head contour is incomplete (obstructed by hand, finger, or outside the frame)");
  });

  it("judges quality on the close-up, not on the whole photo", async () => {
    const inner = colourModel();
    let call = 0;
    const model: HeadContourModel = {
      async run(input, n) {
        const out = await inner.run(input, n);
        // The whole photo looks blurry (small in the frame); the close-up does not.
        return call++ === 0 ? { ...out, quality: Float32Array.from([3, -4, -4, -4, -4, -4, -4, -4]) } : out;
      },
    };
    const result = await analyzePhoto(render(base), model);
    expect(result.accepted).toBe(true);
    expect(result.quality[0]).toBeLessThan(0.5);
  });

  it("passes the model's own reasons through", async () => {
    const result = await analyzePhoto(render(base), colourModel([3, -4, -4, -4, -4, -4, 0.5, -4]));
    expect(result.accepted).toBe(false);
    expect(result.reasons).toEqual(["Image is blurry", "Head tilted to the left or right"]);
    // Still measured, so a clinician can see what was rejected.
    expect(result.ci).not.toBeNull();
  });
});

describe("the HeadContourModel port as an Effect service", () => {
  it("provides a model to a use case through its tag", async () => {
    const program = Effect.gen(function* () {
      const model = yield* HeadContourModel;
      return yield* Effect.promise(() => analyzePhoto(render(base), model));
    });
    const result = await Effect.runPromise(Effect.provideService(program, HeadContourModel, colourModel()));
    expect(result.accepted).toBe(true);
  });
});
