import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { aggregateAccepted, bestAccepted, medianWithSpread } from "./aggregate.ts";

describe("medianWithSpread", () => {
  it("takes the middle value, or the mean of the two middle ones", () => {
    expect(medianWithSpread([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3, count: 3 });
    expect(medianWithSpread([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4, count: 4 });
    expect(medianWithSpread([-0, 0])).toEqual(medianWithSpread([0, -0]));
    expect(medianWithSpread([])).toBeNull();
  });

  test.prop([fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 50 })])(
    "lies within the spread and ignores order",
    (values) => {
      const s = medianWithSpread(values)!;
      expect(s.min).toBeLessThanOrEqual(s.median);
      expect(s.median).toBeLessThanOrEqual(s.max);
      expect(medianWithSpread([...values].reverse())).toEqual(s);
    },
  );
});

describe("aggregateAccepted", () => {
  it("counts only accepted photos, and CVA only where a sticker gave it", () => {
    const result = aggregateAccepted([
      { accepted: true, ci: 80, cvai: 2, cva_mm: null },
      { accepted: true, ci: 82, cvai: 4, cva_mm: 3.1 },
      { accepted: false, ci: 120, cvai: 30, cva_mm: 20 },
      { accepted: true, ci: 84, cvai: 3, cva_mm: null },
    ]);
    expect(result.accepted).toBe(3);
    expect(result.ci).toEqual({ median: 82, min: 80, max: 84, count: 3 });
    expect(result.cvai).toEqual({ median: 3, min: 2, max: 4, count: 3 });
    expect(result.cva_mm).toEqual({ median: 3.1, min: 3.1, max: 3.1, count: 1 });
  });

  it("has no figures without accepted photos", () => {
    expect(aggregateAccepted([{ accepted: false, ci: 80, cvai: 1, cva_mm: null }])).toEqual({ accepted: 0, ci: null, cvai: null, cva_mm: null });
  });
});

describe("bestAccepted", () => {
  const photo = (accepted: boolean, qualityMargin: number, ci: number) => ({ accepted, qualityMargin, ci, cvai: 0, cva_mm: null });

  it("keeps accepted photos only, most confident first, ties in their original order, up to the limit", () => {
    const photos = [photo(true, 0.5, 1), photo(false, 0, 2), photo(true, 0.1, 3), photo(true, 0.5, 4), photo(true, 0.9, 5)];
    expect(bestAccepted(photos, 3).map((p) => p.ci)).toEqual([3, 1, 4]);
    expect(bestAccepted(photos).map((p) => p.ci)).toEqual([3, 1, 4, 5]);
    expect(bestAccepted([photo(false, 0, 1)])).toEqual([]);
  });
});
