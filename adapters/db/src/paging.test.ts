import { describe, expect, it } from "vitest";
import { withinReach } from "./paging.ts";

describe("withinReach: an estimated total corrected by the page just read (ADR 0096)", () => {
  it("a full page with a row after it promises the next page, however low the estimate", () => {
    expect(withinReach(101, 20, 10, 10, true)).toBe(201);
    expect(withinReach(5_000, 20, 10, 10, true)).toBe(5_000);
  });
  it("a page with nothing after it is the end: the total is exact, above or below the estimate", () => {
    expect(withinReach(101, 15, 10, 3, false)).toBe(143);
    expect(withinReach(2_000, 15, 10, 10, false)).toBe(150);
    expect(withinReach(0, 1, 10, 0, false)).toBe(0);
  });
  it("a page past the end keeps the counted total (the pager brings the reader back)", () => {
    expect(withinReach(143, 30, 10, 0, false)).toBe(143);
  });
});
