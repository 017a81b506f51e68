import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { CI_BANDS, CVAI_BANDS, ciBand, cvaiBand, SEVERITY_CITATION } from "./bands.ts";

describe("severity bands", () => {
  it("grades CVAI on the CHOA scale, a boundary going to the higher level", () => {
    expect([0, 3.49, 3.5, 6.24, 6.25, 8.75, 10.99, 11, 25].map((v) => cvaiBand(v).level)).toEqual([1, 1, 2, 2, 3, 4, 4, 5, 5]);
  });

  it("grades CI from long head to severe brachycephaly", () => {
    expect([70, 76, 85, 90, 92.9, 93, 96.9, 97, 110].map((v) => ciBand(v).name)).toEqual([
      "long head", "typical", "typical", "mild brachycephaly", "mild brachycephaly",
      "moderate brachycephaly", "moderate brachycephaly", "severe brachycephaly", "severe brachycephaly",
    ]);
  });

  test.prop([fc.double({ min: -50, max: 200, noNaN: true })])("every value falls in exactly one band", (v) => {
    for (const bands of [CVAI_BANDS, CI_BANDS]) {
      const matching = bands.filter((b) => (b.from === null || v >= b.from) && (b.to === null || v < b.to));
      expect(matching).toHaveLength(1);
    }
  });

  it("refuses a value that is not a measurement", () => {
    expect(() => cvaiBand(Number.NaN)).toThrow(RangeError);
  });

  it("cites its sources", () => {
    expect(SEVERITY_CITATION).toContain("Children's Healthcare of Atlanta");
  });
});
