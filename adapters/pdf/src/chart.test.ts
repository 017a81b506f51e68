import { describe, expect, it } from "vitest";
import { CI_BANDS, CVAI_BANDS } from "@crown/core/measurement/index";
import { pointsByDay, valueAxis } from "./chart.tsx";
import { pdfText } from "./i18n.ts";

describe("the PDF's Over time charts (issue 46)", () => {
  it("never runs the value axis below zero: neither index can be negative", () => {
    for (const values of [[0.4], [1.2, 2.5], [3.1], [0, 0], [12.5]]) {
      const axis = valueAxis(values, CVAI_BANDS);
      expect(axis.lo, JSON.stringify(values)).toBe(0);
      expect(axis.hi).toBeGreaterThanOrEqual(Math.max(...values));
    }
    const ci = valueAxis([86.8, 88.1], CI_BANDS);
    expect(ci.lo).toBeGreaterThan(0);
    expect(ci.lo).toBeLessThanOrEqual(86.8);
  });

  it("plots one point a day, the day's last report: two reports of one date are not a trend", () => {
    const text = pdfText("en");
    const at = (iso: string, value: number | null) => ({ date: new Date(iso), value });
    const plotted = pointsByDay([at("2026-11-28T15:00:00Z", 3.2), at("2026-10-01T10:00:00Z", 5.1), at("2026-11-28T09:00:00Z", 2.9), at("2026-11-29T10:00:00Z", null)], text.day);
    expect(plotted.map((p) => [text.day(p.date), p.value])).toEqual([
      ["10/01/2026", 5.1],
      ["11/28/2026", 3.2],
    ]);
    expect(pointsByDay([at("2026-11-28T15:00:00Z", 3.2), at("2026-11-28T16:00:00Z", 3.4)], text.day)).toHaveLength(1);
  });
});
