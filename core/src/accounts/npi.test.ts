import { describe, expect, test } from "vitest";
import { isValidNpi, normaliseNpi } from "./npi.ts";

describe("NPI numbers", () => {
  test("the standard's example and real-shaped numbers pass; a changed digit or length fails", () => {
    // CMS's published example: 123456789 with check digit 3.
    expect(isValidNpi("1234567893")).toBe(true);
    expect(isValidNpi("1234567890")).toBe(false);
    expect(isValidNpi("1234567895")).toBe(false);
    expect(isValidNpi("2234567893")).toBe(false);
    expect(isValidNpi("123456789")).toBe(false);
    expect(isValidNpi("12345678931")).toBe(false);
    expect(isValidNpi("12345678a3")).toBe(false);
    expect(isValidNpi(normaliseNpi("123-456 7893"))).toBe(true);
  });

  test("exactly one check digit fits every nine-digit stem", () => {
    for (const stem of ["100000000", "199999999", "287654321", "123412341"]) {
      const fits = [...Array(10).keys()].filter((d) => isValidNpi(`${stem}${d}`));
      expect(fits, stem).toHaveLength(1);
    }
  });
});
