import { describe, expect, it } from "vitest";
import { formatDay, formatLongDay, formatUsDate, monthName } from "./dates.ts";

describe("dates in each language", () => {
  it("English is unchanged: MM/DD/YYYY and DD Month YYYY", () => {
    expect(formatDay("2026-03-04", "en")).toBe("03/04/2026");
    expect(formatDay("2026-03-04", "en")).toBe(formatUsDate("2026-03-04"));
    expect(formatLongDay("2026-03-04", "en")).toBe("04 March 2026");
    expect(formatDay("", "en")).toBe("");
    expect(formatDay("not a day", "en")).toBe("not a day");
  });

  it("Spanish puts the day first and names the month in Spanish", () => {
    expect(formatDay("2026-03-04", "es")).toBe("04/03/2026");
    expect(formatLongDay("2026-03-04", "es")).toBe("4 de marzo de 2026");
    expect(monthName(12, "es")).toBe("diciembre");
    expect(monthName(12, "en")).toBe("December");
    expect(formatDay("not a day", "es")).toBe("not a day");
  });
});
