import { describe, expect, test } from "vitest";
import { medianWithSpread } from "./aggregate.ts";
import { agreementOf, describeDisagreement, FALLBACK_MEASUREMENT_ERROR, measurementErrorOf, normalRangeQuantile, photosDisagree, spreadLimit } from "./agreement.ts";

describe("photos that disagree (issue 22, item 11)", () => {
  test("the range quantile matches the tables of the normal range (99 %: n=2 3.64, n=5 4.60, n=10 5.16)", () => {
    expect(normalRangeQuantile(0.99, 2)).toBeCloseTo(3.643, 2);
    expect(normalRangeQuantile(0.99, 5)).toBeCloseTo(4.603, 2);
    expect(normalRangeQuantile(0.99, 10)).toBeCloseTo(5.157, 2);
  });

  test("the limit grows with the model's error and with the number of photos; one photo never disagrees", () => {
    expect(spreadLimit(0.88, 5)).toBeCloseTo(0.88 * Math.sqrt(Math.PI / 2) * 4.603, 1);
    expect(spreadLimit(0.88, 10)).toBeGreaterThan(spreadLimit(0.88, 5));
    expect(spreadLimit(1.76, 5)).toBeCloseTo(2 * spreadLimit(0.88, 5), 6);
    expect(spreadLimit(0.88, 1)).toBe(Number.POSITIVE_INFINITY);
  });

  test("the issue's report (CVAI 0.3 to 11.4) disagrees; photos within the model's error agree", () => {
    const wide = agreementOf({ ci: medianWithSpread([84, 85, 85.5, 86]), cvai: medianWithSpread([0.3, 0.8, 1.1, 1.4, 11.4]) }, FALLBACK_MEASUREMENT_ERROR);
    expect(photosDisagree(wide)).toBe(true);
    const cvai = wide.find((a) => a.index === "CVAI")!;
    expect(cvai.disagree).toBe(true);
    expect(wide.find((a) => a.index === "CI")!.disagree).toBe(false);
    expect(describeDisagreement(cvai)).toBe("CVAI ranges from 0.3 to 11.4 over 5 photos (measurement error explains up to 5.1)");
    const close = agreementOf({ ci: medianWithSpread([84, 86, 85]), cvai: medianWithSpread([1, 3.5, 2]) }, FALLBACK_MEASUREMENT_ERROR);
    expect(photosDisagree(close)).toBe(false);
    expect(agreementOf({ ci: medianWithSpread([84]), cvai: null }, FALLBACK_MEASUREMENT_ERROR)).toEqual([]);
  });

  test("the error comes from the model card's metrics, with the fallback only when the card has none", () => {
    expect(measurementErrorOf({ metrics: { ci_mae: 0.7, cvai_mae: 0.9 } })).toEqual({ ci: 0.7, cvai: 0.9 });
    expect(measurementErrorOf({})).toBe(FALLBACK_MEASUREMENT_ERROR);
    expect(measurementErrorOf({ metrics: { ci_mae: "x", cvai_mae: 0.9 } })).toBe(FALLBACK_MEASUREMENT_ERROR);
  });
});
