import { describe, expect, it } from "vitest";
import { formatUsDate } from "./dates.ts";

describe("formatUsDate", () => {
  it("writes days and moments as MM/DD/YYYY", () => {
    expect(formatUsDate("2026-08-03")).toBe("08/03/2026");
    expect(formatUsDate(new Date(2026, 10, 23, 12))).toBe("11/23/2026");
    expect(formatUsDate(new Date(2026, 0, 5, 12).toISOString())).toBe("01/05/2026");
  });
  it("leaves empty and unreadable values alone", () => {
    expect(formatUsDate(null)).toBe("");
    expect(formatUsDate("")).toBe("");
    expect(formatUsDate("soon")).toBe("soon");
  });
});
