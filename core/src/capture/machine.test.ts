import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import type { UserType } from "../accounts/lifecycle.ts";
import { VERDICT_OUTCOMES } from "../measurement/verdict.ts";
import { type CaptureContext, type CaptureEvent, captureMachine, selectedShots } from "./machine.ts";
import { AUTO_CAPTURE_REFERRED, AUTO_CAPTURE_SHOTS, CAPTURE_SECONDS, goodShotCount, isReferredShot, MIN_GOOD_SHOTS, minGoodShots, REGULAR_MAX_SHOTS } from "./rules.ts";

const ROLES = ["parent", "physician", "physician_staff"] as const satisfies ReadonlyArray<UserType>;

/** Random sessions: shot ids seen or not, every verdict, the clock before and after 10 seconds. */
const arbitraryEvent: fc.Arbitrary<CaptureEvent> = fc.oneof(
  fc.constantFrom<CaptureEvent>(
    { type: "SOURCE_OPENED", source: "camera" },
    { type: "SOURCE_OPENED", source: "video" },
    { type: "START", mode: "auto" },
    { type: "START", mode: "regular" },
    { type: "STOP" },
    { type: "SAVE" },
    { type: "UPLOAD_CLOSED", uploaded: false },
    { type: "RESTART" },
  ),
  fc.record({ n: fc.integer({ min: 0, max: 30 }), verdict: fc.constantFrom(null, ...VERDICT_OUTCOMES) }).map(
    ({ n, verdict }): CaptureEvent => ({ type: "SHOT_TAKEN", shot: { id: `s${n}`, image: n, verdict } }),
  ),
  fc.record({ n: fc.integer({ min: 0, max: 30 }), verdict: fc.constantFrom(...VERDICT_OUTCOMES) }).map(
    ({ n, verdict }): CaptureEvent => ({ type: "SHOT_JUDGED", id: `s${n}`, verdict, reasons: verdict === "retake" ? ["Image is blurry"] : [] }),
  ),
  fc.integer({ min: 0, max: 30 }).map((n): CaptureEvent => ({ type: "TOGGLE_SHOT", id: `s${n}` })),
  fc.integer({ min: 0, max: 12_000 }).map((elapsedMs): CaptureEvent => ({ type: "TICK", elapsedMs })),
);

const start = (role: UserType | null) => createActor(captureMachine, { input: { role } }).start();
const shot = (n: number, verdict: "accept" | "retake" | "refer" | null = "accept"): CaptureEvent => ({ type: "SHOT_TAKEN", shot: { id: `s${n}`, image: n, verdict } });

describe("captureMachine: properties", () => {
  test.prop([fc.constantFrom(null, ...ROLES), fc.array(arbitraryEvent, { maxLength: 80 })])(
    "whatever happens: Auto Capture holds at most 10 good shots and 3 referred ones and takes no retake, Regular at most 20, the selection only shots taken, and a save only with the minimum",
    (role, events) => {
      const actor = start(role);
      for (const event of events) {
        if (actor.getSnapshot().status !== "active") break;
        const before = actor.getSnapshot();
        actor.send(event);
        const { value, context } = actor.getSnapshot();
        const c = context as CaptureContext;
        if (c.mode === "auto") expect(c.shots.length).toBeLessThanOrEqual(AUTO_CAPTURE_SHOTS + AUTO_CAPTURE_REFERRED);
        if (c.mode === "auto" && before.value === "capturing" && event.type === "SHOT_TAKEN") {
          // a retake (or an unjudged frame) is never kept; a referral only while fewer than 3 are
          if (event.shot.verdict !== "accept" && event.shot.verdict !== "refer") expect(c.shots).toEqual(before.context.shots);
          const referred = (shots: ReadonlyArray<{ verdict?: unknown }>) => shots.filter((s) => s.verdict === "refer").length;
          if (event.shot.verdict === "refer") expect(referred(c.shots)).toBeLessThanOrEqual(Math.max(referred(before.context.shots), AUTO_CAPTURE_REFERRED));
        }
        expect(c.shots.length).toBeLessThanOrEqual(REGULAR_MAX_SHOTS);
        if (value === "capturing" && c.mode === "auto") expect(goodShotCount(c.shots)).toBeLessThan(AUTO_CAPTURE_SHOTS);
        for (const id of c.selected) expect(c.shots.some((s) => s.id === id)).toBe(true);
        expect(new Set(c.shots.map((s) => s.id)).size).toBeLessThanOrEqual(c.shots.length);
        if (value === "saving" && before.value !== "saving") expect(selectedShots(c).filter((s) => !isReferredShot(s)).length).toBeGreaterThanOrEqual(minGoodShots(role));
        if (value === "choosing") expect(c.shots).toEqual([]);
      }
    },
  );

  test.prop([fc.array(fc.constantFrom(null, ...VERDICT_OUTCOMES), { maxLength: 40 })])("Auto Capture keeps the accepted frames and the first 3 referred ones (flagged), and stops by itself at the 10th accepted", (verdicts) => {
    const actor = start("parent");
    actor.send({ type: "SOURCE_OPENED", source: "camera" });
    actor.send({ type: "START", mode: "auto" });
    verdicts.forEach((verdict, i) => actor.getSnapshot().value === "capturing" && actor.send(shot(i, verdict)));
    const accepted = verdicts.map((v, i) => ({ v, i })).filter(({ v }) => v === "accept").slice(0, AUTO_CAPTURE_SHOTS);
    const end = accepted.length === AUTO_CAPTURE_SHOTS ? accepted[AUTO_CAPTURE_SHOTS - 1]!.i : verdicts.length;
    const referred = verdicts.map((v, i) => ({ v, i })).filter(({ v, i }) => v === "refer" && i <= end).slice(0, AUTO_CAPTURE_REFERRED);
    const kept = [...accepted, ...referred].sort((a, b) => a.i - b.i);
    expect(actor.getSnapshot().context.shots.map((s) => s.id)).toEqual(kept.map(({ i }) => `s${i}`));
    expect(actor.getSnapshot().context.shots.filter(isReferredShot).map((s) => s.id)).toEqual(referred.map(({ i }) => `s${i}`));
    expect(actor.getSnapshot().value).toBe(accepted.length === AUTO_CAPTURE_SHOTS ? "selecting" : "capturing");
  });

  test.prop([fc.constantFrom(...ROLES), fc.integer({ min: 0, max: AUTO_CAPTURE_SHOTS })])("a selection saves exactly when it holds the minimum for who is capturing", (role, count) => {
    const actor = start(role);
    actor.send({ type: "SOURCE_OPENED", source: "video" });
    actor.send({ type: "START", mode: "auto" });
    for (let i = 0; i < count; i++) actor.send(shot(i));
    if (actor.getSnapshot().value === "capturing") actor.send({ type: "STOP" });
    expect(actor.getSnapshot().context.selected).toHaveLength(count);
    actor.send({ type: "SAVE" });
    expect(actor.getSnapshot().value).toBe(count >= minGoodShots(role) ? "saving" : "selecting");
  });
});

describe("captureMachine: Regular Capture and the selection", () => {
  it("takes every frame on a 10-second clock, counts down, and selects the good and unjudged shots at the end", () => {
    const actor = start("physician");
    actor.send({ type: "SOURCE_OPENED", source: "camera" });
    actor.send({ type: "START", mode: "regular" });
    expect(actor.getSnapshot().context.secondsLeft).toBe(CAPTURE_SECONDS);
    actor.send(shot(1, null));
    actor.send(shot(2, null));
    actor.send(shot(3, null));
    actor.send({ type: "SHOT_JUDGED", id: "s2", verdict: "retake", reasons: ["Image is blurry"] });
    actor.send({ type: "TICK", elapsedMs: 2_500 });
    expect(actor.getSnapshot().context.secondsLeft).toBe(8);
    actor.send({ type: "TICK", elapsedMs: CAPTURE_SECONDS * 1000 });
    expect(actor.getSnapshot().value).toBe("selecting");
    expect(actor.getSnapshot().context.selected).toEqual(["s1", "s3"]);
    // A verdict arriving after the clock is recorded, the selection stays the person's.
    actor.send({ type: "SHOT_JUDGED", id: "s3", verdict: "accept", reasons: [] });
    expect(actor.getSnapshot().context.shots.find((s) => s.id === "s3")?.verdict).toBe("accept");
    expect(actor.getSnapshot().context.selected).toEqual(["s1", "s3"]);
    actor.send({ type: "TOGGLE_SHOT", id: "s2" });
    expect(actor.getSnapshot().context.selected).toEqual(["s1", "s3", "s2"]);
    actor.send({ type: "SAVE" });
    expect(actor.getSnapshot().value).toBe("saving");
    // Closing the upload dialog without an upload keeps the selection.
    actor.send({ type: "UPLOAD_CLOSED", uploaded: false });
    expect(actor.getSnapshot().value).toBe("selecting");
    expect(actor.getSnapshot().context.selected).toEqual(["s1", "s3", "s2"]);
    actor.send({ type: "SAVE" });
    actor.send({ type: "UPLOAD_CLOSED", uploaded: true });
    expect(actor.getSnapshot().status).toBe("done");
    expect(actor.getSnapshot().context.shots).toEqual([]);
  });

  it("Auto Capture's referred frames are selected for the reviewer but do not count towards the minimum", () => {
    const actor = start("physician");
    actor.send({ type: "SOURCE_OPENED", source: "camera" });
    actor.send({ type: "START", mode: "auto" });
    actor.send(shot(1));
    actor.send(shot(2, "refer"));
    actor.send(shot(3, "retake"));
    actor.send(shot(4));
    actor.send(shot(5, "refer"));
    actor.send({ type: "STOP" });
    expect(actor.getSnapshot().context.selected).toEqual(["s1", "s2", "s4", "s5"]);
    actor.send({ type: "SAVE" });
    expect(actor.getSnapshot().value).toBe("selecting");
    actor.send({ type: "TOGGLE_SHOT", id: "s2" });
    actor.send({ type: "SAVE" });
    expect(actor.getSnapshot().value).toBe("selecting");
  });

  it("a staff member's selection of 4 is refused, a physician's of 3 is not", () => {
    expect(MIN_GOOD_SHOTS).toEqual({ physician: 3, everyoneElse: 5 });
    const selectionOf = (role: UserType, count: number) => {
      const actor = start(role);
      actor.send({ type: "SOURCE_OPENED", source: "camera" });
      actor.send({ type: "START", mode: "regular" });
      for (let i = 0; i < count; i++) actor.send(shot(i));
      actor.send({ type: "STOP" });
      actor.send({ type: "SAVE" });
      return actor.getSnapshot().value;
    };
    expect(selectionOf("physician_staff", 4)).toBe("selecting");
    expect(selectionOf("physician_staff", 5)).toBe("saving");
    expect(selectionOf("physician", 3)).toBe("saving");
    expect(selectionOf("parent", 4)).toBe("selecting");
  });

  it("starting again drops every shot", () => {
    const released: number[] = [];
    const actor = createActor(captureMachine.provide({ actions: { released: () => void released.push(1) } }), { input: { role: "parent" } }).start();
    actor.send({ type: "SOURCE_OPENED", source: "camera" });
    actor.send({ type: "START", mode: "auto" });
    actor.send(shot(1));
    actor.send({ type: "RESTART" });
    expect(actor.getSnapshot().value).toBe("choosing");
    expect(actor.getSnapshot().context).toMatchObject({ shots: [], selected: [], mode: null, source: null });
    expect(released.length).toBeGreaterThan(0);
  });
});
