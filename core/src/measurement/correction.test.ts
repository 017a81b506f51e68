import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { addHandle, handlesOf, moveHandle, OUTLINE_LIMITS, outlineProblem, redrawStretch, remeasure, removeHandle, startingOutline } from "./correction.ts";
import { measureHead } from "./geometry.ts";
import type { Point } from "./image.ts";
import { drawHead } from "../testing/heads.ts";

const head = () => drawHead({ halfLength: 200, halfWidth: 160, rotation: 0, cx: 400, cy: 300, shear: 0.1 });
const size = { width: 800, height: 600 };

describe("remeasure: the analysis's own geometry", () => {
  it("gives measureHead's CI and CVAI, and CVA in mm only with a sticker", () => {
    const { outline, nose } = head();
    const direct = measureHead(outline, nose)!;
    const without = remeasure(outline, nose, null, 30)!;
    expect(without.ci).toBe(direct.ci);
    expect(without.cvai).toBe(direct.cvai);
    expect(without.cvaMm).toBeNull();
    const withSticker = remeasure(outline, nose, { centre: { x: 400, y: 300 }, radius: 15 }, 30)!;
    expect(withSticker.cvaMm).toBeGreaterThan(0);
    expect(remeasure(outline, null, null, 30)).toBeNull();
  });
});

describe("outline edits", () => {
  it("offers evenly spread handles", () => {
    const { outline } = head();
    const handles = handlesOf(outline);
    expect(handles.length).toBe(OUTLINE_LIMITS.handles);
    expect([...handles].sort((a, b) => a - b)).toEqual(handles);
  });

  it("moving a handle moves it and bends only the stretch to its neighbours, changing the figures", () => {
    const { outline, nose } = head();
    const handles = handlesOf(outline);
    // The handle farthest to the side, pushed outwards: the head gets wider.
    const h = handles.reduce((best, i, k) => (outline[i]!.x > outline[handles[best]!]!.x ? k : best), 0);
    const to = { x: outline[handles[h]!]!.x + 30, y: outline[handles[h]!]!.y };
    const moved = moveHandle(outline, handles, h, to);
    expect(moved[handles[h]!]).toEqual(to);
    // Points beyond the neighbouring handles stay where they were.
    const before = handles[(h - 1 + handles.length) % handles.length]!;
    const after = handles[(h + 1) % handles.length]!;
    const bent = (i: number) => (before < after ? i > before && i < after : i > before || i < after);
    for (let i = 0; i < outline.length; i++) if (!bent(i)) expect(moved[i]).toEqual(outline[i]);
    expect(remeasure(moved, nose, null, 30)!.ci).toBeGreaterThan(remeasure(outline, nose, null, 30)!.ci + 1);
  });

  it("adding then removing handles keeps a valid outline; removal stops at the minimum", () => {
    const { outline } = head();
    let state = { outline: [...outline], handles: handlesOf(outline) };
    state = addHandle(state.outline, state.handles, 3);
    expect(state.handles.length).toBe(OUTLINE_LIMITS.handles + 1);
    expect(outlineProblem(state.outline, size)).toBeNull();
    while (state.handles.length > OUTLINE_LIMITS.minHandles) state = removeHandle(state.outline, state.handles, 0);
    expect(state.handles.length).toBe(OUTLINE_LIMITS.minHandles);
    const again = removeHandle(state.outline, state.handles, 0);
    expect(again.handles.length).toBe(OUTLINE_LIMITS.minHandles);
    for (const i of state.handles) expect(i).toBeLessThan(state.outline.length);
  });

  it("adds a point on the segment when no point lies between two handles", () => {
    const square: Point[] = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
      { x: 0, y: 10 },
    ];
    const r = addHandle(square, [0, 1, 2, 3], 0);
    expect(r.outline[1]).toEqual({ x: 5, y: 0 });
    expect(r.handles).toEqual([0, 1, 2, 3, 4]);
  });

  it("redrawing a stretch replaces the side the path runs beside", () => {
    const { outline, nose } = head();
    // A path across the right side, pushed outwards.
    const path = Array.from({ length: 20 }, (_, k) => ({ x: 620, y: 180 + (k * 240) / 19 }));
    const redrawn = redrawStretch(outline, path);
    expect(outlineProblem(redrawn, size)).toBeNull();
    const xs = redrawn.map((p) => p.x);
    expect(Math.max(...xs)).toBeCloseTo(620, 6);
    // The left side is untouched.
    expect(Math.min(...xs)).toBeCloseTo(Math.min(...outline.map((p) => p.x)), 6);
    expect(remeasure(redrawn, nose, null, 30)).not.toBeNull();
    expect(redrawStretch([], path)).toEqual(path);
  });

  test.prop([fc.integer({ min: 0, max: OUTLINE_LIMITS.handles - 1 }), fc.double({ min: -20, max: 20, noNaN: true }), fc.double({ min: -20, max: 20, noNaN: true })])(
    "small handle moves keep the outline simple",
    (h, dx, dy) => {
      const { outline } = head();
      const handles = handlesOf(outline);
      const p = outline[handles[h]!]!;
      expect(outlineProblem(moveHandle(outline, handles, h, { x: p.x + dx, y: p.y + dy }), size)).toBeNull();
    },
  );
});

describe("outlineProblem", () => {
  it("refuses too few points, points outside the photo and a crossing line", () => {
    expect(outlineProblem(startingOutline(size).slice(0, 4), size)).toBe("tooFew");
    expect(outlineProblem(startingOutline(size, OUTLINE_LIMITS.maxPoints + 1), size)).toBe("tooMany");
    expect(outlineProblem([...startingOutline(size).slice(1), { x: 5000, y: 10 }], size)).toBe("outside");
    const bow: Point[] = [
      { x: 100, y: 100 },
      { x: 300, y: 300 },
      { x: 300, y: 100 },
      { x: 200, y: 50 },
      { x: 100, y: 300 },
      { x: 50, y: 200 },
    ];
    expect(outlineProblem(bow, size)).toBe("crossing");
    expect(outlineProblem(startingOutline(size), size)).toBeNull();
  });
});
