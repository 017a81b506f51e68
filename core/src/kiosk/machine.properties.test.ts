import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { createActor, transition } from "xstate";
import { AUTO_CAPTURE_SHOTS, goodShotCount, MIN_GOOD_SHOTS } from "../capture/rules.ts";
import { arbitraryEvent, hooks, liveActor, PAIRED, PATIENT, STAFF, STAFF_MIN_SHOTS, UNPAIRED, WIPED_STATES } from "../testing/kiosk-machine.ts";
import { holdsNoPatientData, kioskMachine, kioskMinimumShots } from "./machine.ts";

describe("kioskMachine: the rules of one patient", () => {
  /** Signs `staff` in, chooses the patient and captures `count` good shots, then asks to upload. */
  const captureAndUpload = (staff: typeof STAFF, count: number) => {
    const actor = createActor(kioskMachine, { input: PAIRED }).start();
    actor.send({ type: "SIGNED_IN", staff, session: "t" });
    actor.send({ type: "PATIENT_CHOSEN", patient: PATIENT });
    actor.send({ type: "START_CAPTURE" });
    for (let i = 0; i < count; i++) actor.send({ type: "SHOT_TAKEN", shot: { id: `s${i}`, image: i } });
    if (actor.getSnapshot().value === "capturing") actor.send({ type: "STOP_CAPTURE" });
    actor.send({ type: "UPLOAD" });
    return actor.getSnapshot();
  };

  it("a staff member needs at least 5 good shots; fewer stay in review", () => {
    expect(STAFF_MIN_SHOTS).toBe(MIN_GOOD_SHOTS.everyoneElse);
    expect(captureAndUpload(STAFF, STAFF_MIN_SHOTS - 1).value).toBe("reviewing");
    expect(captureAndUpload(STAFF, STAFF_MIN_SHOTS).value).toBe("uploading");
  });

  it("the physician signed in on their own tablet needs at least 3", () => {
    const physician = { identifier: "phys-1", name: "Dr. Ada Grey", role: "physician" as const };
    expect(kioskMinimumShots({ staff: physician })).toBe(MIN_GOOD_SHOTS.physician);
    expect(captureAndUpload(physician, MIN_GOOD_SHOTS.physician - 1).value).toBe("reviewing");
    expect(captureAndUpload(physician, MIN_GOOD_SHOTS.physician).value).toBe("uploading");
  });

  it("Auto Capture keeps good frames and referred ones (flagged, not counted as good): a frame judged retake is not a shot", () => {
    const actor = createActor(kioskMachine, { input: PAIRED }).start();
    actor.send({ type: "SIGNED_IN", staff: STAFF, session: "t" });
    actor.send({ type: "PATIENT_CHOSEN", patient: PATIENT });
    actor.send({ type: "START_CAPTURE" });
    actor.send({ type: "SHOT_TAKEN", shot: { id: "bad", image: 0, verdict: "retake" } });
    actor.send({ type: "SHOT_TAKEN", shot: { id: "unsure", image: 0, verdict: "refer" } });
    actor.send({ type: "SHOT_TAKEN", shot: { id: "good", image: 0, verdict: "accept" } });
    expect(actor.getSnapshot().context.shots.map((s) => s.id)).toEqual(["unsure", "good"]);
    expect(goodShotCount(actor.getSnapshot().context.shots)).toBe(1);
  });

  it("an upload keeps its queue while the network is down, resumes when it is back, and sends shots out of memory", () => {
    // The upload child's calls never answer here: the test sends its reports (testing/kiosk-machine.ts).
    const actor = liveActor(PAIRED);
    const started = () => hooks.filter((h) => h === "started");
    const resumed = () => hooks.filter((h) => h === "resumed");
    actor.send({ type: "SIGNED_IN", staff: STAFF, session: "t" });
    actor.send({ type: "PATIENT_CHOSEN", patient: PATIENT });
    actor.send({ type: "START_CAPTURE" });
    for (const id of ["a", "b", "c", "d", "e"]) actor.send({ type: "SHOT_TAKEN", shot: { id, image: id } });
    actor.send({ type: "STOP_CAPTURE" });
    actor.send({ type: "UPLOAD" });
    expect(started()).toHaveLength(1);
    expect(actor.getSnapshot().context.queue.map((s) => s.id)).toEqual(["a", "b", "c", "d", "e"]);
    actor.send({ type: "FILE_SENT", id: "a" });
    actor.send({ type: "NETWORK_DOWN" });
    actor.send({ type: "IDLE_TIMEOUT" });
    expect(actor.getSnapshot().value).toBe("uploading");
    expect(actor.getSnapshot().context.online).toBe(false);
    expect(actor.getSnapshot().context.queue.map((s) => s.id)).toEqual(["b", "c", "d", "e"]);
    actor.send({ type: "NETWORK_UP" });
    expect(resumed()).toHaveLength(1);
    actor.send({ type: "UPLOAD_SUCCEEDED" });
    expect(actor.getSnapshot().value).toBe("done");
    expect(holdsNoPatientData(actor.getSnapshot().context)).toBe(true);
  });
});

describe("kioskMachine: properties", () => {
  test.prop([fc.boolean(), fc.array(arbitraryEvent, { maxLength: 60 })])(
    "no sequence of events leaves a patient, shots or queued uploads after the attract screen or done",
    (paired, events) => {
      const actor = createActor(kioskMachine, { input: paired ? PAIRED : UNPAIRED }).start();
      for (const event of events) {
        if (actor.getSnapshot().status !== "active") break; // revoked is final
        actor.send(event);
        const { value, context } = actor.getSnapshot();
        if (WIPED_STATES.includes(String(value))) {
          expect(holdsNoPatientData(context)).toBe(true);
          expect(context.session).toBeNull();
        }
        if (context.patient === null) expect(context.shots).toHaveLength(0);
        expect(context.shots.length).toBeLessThanOrEqual(AUTO_CAPTURE_SHOTS);
      }
    },
  );

  test.prop([fc.array(arbitraryEvent, { maxLength: 30 }), fc.array(arbitraryEvent, { minLength: 1, maxLength: 30 })])(
    "a revoked device can do nothing: after REVOKED every event is ignored and nothing is kept",
    (before, after) => {
      const actor = liveActor(PAIRED);
      const starts = () => hooks.filter((h) => h === "started").length;
      for (const event of before) if (actor.getSnapshot().status === "active") actor.send(event);
      const startsBefore = starts();
      if (actor.getSnapshot().status === "active") actor.send({ type: "REVOKED" });
      const revoked = actor.getSnapshot();
      expect(revoked.value).toBe("revoked");
      expect(revoked.status).toBe("done");
      expect(revoked.context.device).toBeNull();
      expect(holdsNoPatientData(revoked.context)).toBe(true);
      for (const event of after) {
        const [next, actions] = transition(kioskMachine, revoked, event);
        expect(next.value).toBe("revoked");
        expect(next.context).toEqual(revoked.context);
        expect(actions).toEqual([]);
      }
      expect(starts()).toBe(startsBefore);
    },
  );

  test.prop([fc.array(arbitraryEvent, { maxLength: 60 })])("a language chosen lasts until the session ends, then the device's default is back", (events) => {
    const actor = createActor(kioskMachine, { input: PAIRED }).start();
    for (const event of events) {
      if (actor.getSnapshot().status !== "active") break;
      const before = actor.getSnapshot();
      actor.send(event);
      const { value, context } = actor.getSnapshot();
      if (value === "revoked" || (value === "idle" && (before.value !== "idle" || event.type === "IDLE_TIMEOUT"))) expect(context.language).toBeNull();
      else if (event.type === "CHOOSE_LANGUAGE") expect(context.language).toBe(event.language);
      else if (value !== "idle" || before.value === "idle") expect(context.language).toBe(before.context.language);
    }
  });

  test.prop([fc.array(arbitraryEvent, { maxLength: 40 })])("the idle timeout always ends at the attract screen, except during an upload", (events) => {
    const actor = createActor(kioskMachine, { input: PAIRED }).start();
    for (const event of events) if (actor.getSnapshot().status === "active") actor.send(event);
    const before = actor.getSnapshot().value;
    if (actor.getSnapshot().status === "active") actor.send({ type: "IDLE_TIMEOUT" });
    const after = actor.getSnapshot().value;
    if (before === "revoked" || before === "uploading") expect(after).toBe(before);
    else expect(after).toBe("idle");
  });
});
