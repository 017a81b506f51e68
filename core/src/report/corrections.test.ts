import { Cause, Effect, Exit, Option } from "effect";
import { describe, expect, it } from "vitest";
import { handlesOf, moveHandle, remeasure } from "../measurement/correction.ts";
import { correctNoseTip, correctOutline, resetOutline } from "./correct-outline.ts";
import { decidePhoto } from "./decide-photo.ts";
import { analysedTestReport, fakePhoto, PARENT, PHYSICIAN, REVIEWER } from "./testing.ts";

const PHOTOS = [60, 61, 62].map((rx, i) => fakePhoto(rx, 80, i));

const analysedReport = () => analysedTestReport(PHOTOS);

const failureOf = (exit: Exit.Exit<unknown, unknown>) => (Exit.isFailure(exit) ? Option.getOrNull(Cause.failureOption(exit.cause)) : null);

describe("the reviewer corrects the outline", () => {
  it("re-measures with core's geometry, keeps the model's answer, the reviewer and the time, and the report's figures follow", async () => {
    const { w, id, photo } = await analysedReport();
    const a = photo("photo-1.png");
    const before = w.measurements.get(a.id)!;
    const g = before.geometry!;
    const handles = handlesOf(g.outline);
    const widest = handles.reduce((best, i, k) => (g.outline[i]!.x > g.outline[handles[best]!]!.x ? k : best), 0);
    const p = g.outline[handles[widest]!]!;
    const outline = moveHandle(g.outline, handles, widest, { x: p.x + 6, y: p.y });
    const answer = await w.run(w.as(REVIEWER)(correctOutline(id, { attachment_identifier: a.id, outline })));
    const expected = remeasure(outline, g.noseTip, g.sticker, 30)!;
    expect(answer.measurement.ci).toBeCloseTo(expected.ci, 2);
    expect(answer.measurement.model_answer?.ci).toBeCloseTo(before.ci!, 2);
    expect(answer.measurement.outline_corrected).toBe(true);
    const kept = w.measurements.get(a.id)!;
    expect(kept.correctedBy).toBe(REVIEWER.id);
    expect(kept.correctedAt).not.toBeNull();
    expect(kept.model).toEqual(before.model);
    expect(kept.modelAnswer!.geometry.outline).toEqual(g.outline);
    expect(w.reports.get(id)!.analysis!.ci!.max).toBeGreaterThan(before.ci!);
    expect(w.onboarding.world.audit.some((e) => e.action === "review.outline_corrected" && e.subjectId === id && e.actorId === REVIEWER.id)).toBe(true);

    // A second correction (the nose tip) keeps the model's first answer, not the reviewer's.
    const nose = g.noseTip!;
    await w.run(w.as(REVIEWER)(correctNoseTip(id, { attachment_identifier: a.id, x: nose.x + 3, y: nose.y })));
    expect(w.measurements.get(a.id)!.modelAnswer!.ci).toBe(before.ci);

    // Reset: the model's outline and figures are back.
    await w.run(w.as(REVIEWER)(resetOutline(id, { attachment_identifier: a.id })));
    const reset = w.measurements.get(a.id)!;
    expect(reset.ci).toBe(before.ci);
    expect(reset.geometry).toEqual(g);
    expect(reset.modelAnswer).toBeNull();
    expect(reset.outlineCorrected).toBe(false);
    const again = await w.exit(w.as(REVIEWER)(resetOutline(id, { attachment_identifier: a.id })));
    expect(failureOf(again)).toMatchObject({ _tag: "ValidationFailed" });
  });

  it("refuses an outline that crosses itself, leaves the photo, or has too few points; and callers other than reviewers", async () => {
    const { w, id, photo } = await analysedReport();
    const a = photo("photo-2.png");
    const g = w.measurements.get(a.id)!.geometry!;
    const crossing = [...g.outline];
    const i = Math.floor(crossing.length / 4);
    const j = Math.floor((3 * crossing.length) / 4);
    [crossing[i], crossing[j]] = [crossing[j]!, crossing[i]!];
    for (const outline of [crossing, g.outline.slice(0, 4), g.outline.map((p) => ({ x: p.x + 10 * g.imageWidth, y: p.y }))]) {
      const exit = await w.exit(w.as(REVIEWER)(correctOutline(id, { attachment_identifier: a.id, outline })));
      expect(failureOf(exit)).toMatchObject({ _tag: "ValidationFailed" });
    }
    for (const who of [PARENT, PHYSICIAN]) {
      const exit = await w.exit(w.as(who)(correctOutline(id, { attachment_identifier: a.id, outline: g.outline })));
      expect(failureOf(exit)).toMatchObject({ _tag: "Forbidden" });
    }
    expect(w.measurements.get(a.id)!.modelAnswer).toBeNull();
  });

  it("a photo without a measurable head is outlined by the reviewer, then accepted and counted", async () => {
    const { w, id, photo } = await analysedReport();
    const a = photo("photo-3.png");
    const m = w.measurements.get(a.id)!;
    const g = m.geometry!;
    // As if the model had found no head: no outline, no nose, not accepted.
    w.measurements.set(a.id, { ...m, accepted: false, verdict: "refer", ci: null, cvai: null, cvaMm: null, geometry: { ...g, outline: [], noseTip: null } });
    await w.run(w.as(REVIEWER)(correctOutline(id, { attachment_identifier: a.id, outline: g.outline, nose_tip: g.noseTip })));
    await w.run(w.as(REVIEWER)(decidePhoto(id, { attachment_identifier: a.id, decision: "accept" })));
    const kept = w.measurements.get(a.id)!;
    expect(kept.ci).toBeCloseTo(m.ci!, 6);
    expect(kept.modelAnswer!.ci).toBeNull();
    expect(w.reports.get(id)!.analysis!.ci!.count).toBe(3);
  });

  it("a reject keeps one of the quiz's eight reasons; a reject without one is refused", async () => {
    const { w, id, photo } = await analysedReport();
    const a = photo("photo-1.png");
    for (const reason of [undefined, "Bad vibes"]) {
      const exit = await w.exit(w.as(REVIEWER)(decidePhoto(id, { attachment_identifier: a.id, decision: "reject", reason })));
      expect(failureOf(exit)).toMatchObject({ _tag: "ValidationFailed" });
    }
    await w.run(w.as(REVIEWER)(decidePhoto(id, { attachment_identifier: a.id, decision: "reject", reason: "Hair artifact present" })));
    expect(w.measurements.get(a.id)!.decisionReason).toBe("Hair artifact present");
    await w.run(w.as(REVIEWER)(decidePhoto(id, { attachment_identifier: a.id, decision: "accept" })));
    expect(w.measurements.get(a.id)!.decisionReason).toBeNull();
  });
});
