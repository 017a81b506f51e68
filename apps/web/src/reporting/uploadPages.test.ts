import { describe, expect, it } from "vitest";
import { ATTACHMENTS_STEP, wholeUploads } from "./uploadPages.ts";

const upload = (id: string, files: number) => ({ id, attachments: Array.from({ length: files }, (_, i) => i) });

describe("Load More pages by upload (issue 22, item 8)", () => {
  it("never splits an upload: 6 files then 6 files both show for a budget of 7", () => {
    const shown = wholeUploads([upload("a", 6), upload("b", 6), upload("c", 3)], ATTACHMENTS_STEP);
    expect(shown.map((u) => u.id)).toEqual(["a", "b"]);
  });
  it("stops once the budget is reached, and shows a first upload larger than the budget whole", () => {
    expect(wholeUploads([upload("a", 7), upload("b", 1)], 7).map((u) => u.id)).toEqual(["a"]);
    expect(wholeUploads([upload("a", 20), upload("b", 1)], 7).map((u) => u.id)).toEqual(["a"]);
    expect(wholeUploads([upload("a", 2), upload("b", 2)], 14).map((u) => u.id)).toEqual(["a", "b"]);
    expect(wholeUploads([], 7)).toEqual([]);
  });
});
