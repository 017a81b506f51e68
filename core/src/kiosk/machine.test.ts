import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { type AnyMachineSnapshot, createActor, transition } from "xstate";
import { createTestModel, getShortestPaths, getSimplePaths } from "xstate/graph";
import {
  AUTO_CAPTURE_SHOTS,
  holdsNoPatientData,
  type KioskContext,
  type KioskEvent,
  type KioskInput,
  kioskMachine,
  MIN_KIOSK_SHOTS,
} from "./machine.ts";

const DEVICE = { identifier: "dev-1", name: "Exam room 2", practice: "Dr. Ada Grey" };
const STAFF = { identifier: "staff-1", name: "Nina Nurse" };
const PATIENT = { identifier: "baby-1", name: "Baby Doe", date_of_birth: "2026-06-01" };

/** Every event the tablet can receive; shots get fresh ids from the state they are sent in. */
const eventsFor = (snapshot: AnyMachineSnapshot): KioskEvent[] => {
  const context = snapshot.context as KioskContext;
  const first = context.shots[0]?.id ?? "none";
  const queued = context.queue[0]?.id ?? "none";
  return [
    { type: "PAIRED", device: DEVICE },
    { type: "REVOKED" },
    { type: "SIGNED_IN", staff: STAFF, session: "kiosk-session-token" },
    { type: "SIGN_OUT" },
    { type: "IDLE_TIMEOUT" },
    { type: "SESSION_ENDED" },
    { type: "PATIENT_CHOSEN", patient: PATIENT },
    { type: "CHANGE_PATIENT" },
    { type: "START_CAPTURE" },
    { type: "SHOT_TAKEN", shot: { id: `shot-${context.shots.length + 1}`, image: { pixels: "..." } } },
    { type: "STOP_CAPTURE" },
    { type: "DISCARD_SHOT", id: first },
    { type: "RETAKE" },
    { type: "UPLOAD" },
    { type: "UPLOAD_PROGRESS", progress: { step: "upload", sent: 1, total: context.shots.length, reportIdentifier: "rep-1" } },
    { type: "SHOT_SENT", id: queued },
    { type: "UPLOAD_SUCCEEDED" },
    { type: "UPLOAD_FAILED", message: "Oops! There was some error" },
    { type: "NETWORK_DOWN" },
    { type: "NETWORK_UP" },
    { type: "FINISH" },
  ];
};
const ALL_EVENT_TYPES = eventsFor(createActor(kioskMachine, { input: {} }).getSnapshot()).map((e) => e.type);

/** States that must never hold patient data. */
const WIPED_STATES = ["unpaired", "idle", "done", "revoked"];

/** The context reduced to what the flow depends on (counts, not contents), so paths stay countable. */
const serializeState = (snapshot: AnyMachineSnapshot) => {
  const c = snapshot.context as KioskContext;
  return JSON.stringify([snapshot.value, c.device !== null, c.staff !== null, c.patient !== null, c.shots.length, c.queue.length, c.online, c.error !== null]);
};

/**
 * Simple paths (no state visited twice) over the flow's decisions: up to the minimum of shots, and
 * without the network toggles and progress reports (covered by the shortest paths and the properties).
 */
const simplePathEvents = (snapshot: AnyMachineSnapshot, event: KioskEvent) =>
  !(event.type === "SHOT_TAKEN" && (snapshot.context as KioskContext).shots.length >= MIN_KIOSK_SHOTS) &&
  !["NETWORK_DOWN", "NETWORK_UP", "UPLOAD_PROGRESS", "SHOT_SENT"].includes(event.type);

const UNPAIRED: KioskInput = {};
const PAIRED: KioskInput = { device: DEVICE, idleTimeoutMs: 60_000 };

describe("kioskMachine: every state and transition (xstate/graph)", () => {
  const paths = getShortestPaths(kioskMachine, { input: UNPAIRED, events: eventsFor, serializeState });

  it("reaches every state of the flow from a new tablet", () => {
    const reached = new Set(paths.map((p) => String(p.state.value)));
    expect([...reached].sort()).toEqual(["capturing", "done", "idle", "patientChosen", "reviewing", "revoked", "signedIn", "unpaired", "uploading"].sort());
  });

  it("the happy path: pair, sign in, choose, capture 10 automatically, review, upload, done, attract screen", () => {
    const done = paths.find((p) => p.state.value === "done");
    expect(done?.steps.map((s) => s.event.type)).toEqual([
      "xstate.init",
      "PAIRED",
      "SIGNED_IN",
      "PATIENT_CHOSEN",
      "START_CAPTURE",
      ...Array(MIN_KIOSK_SHOTS).fill("SHOT_TAKEN"),
      "STOP_CAPTURE",
      "UPLOAD",
      "UPLOAD_SUCCEEDED",
    ]);
    const auto = createActor(kioskMachine, { input: PAIRED }).start();
    for (const e of ["SIGNED_IN", "PATIENT_CHOSEN", "START_CAPTURE"] as const) auto.send(eventsFor(auto.getSnapshot()).find((x) => x.type === e)!);
    for (let i = 0; i < AUTO_CAPTURE_SHOTS; i++) {
      expect(auto.getSnapshot().value).toBe("capturing");
      auto.send(eventsFor(auto.getSnapshot()).find((x) => x.type === "SHOT_TAKEN")!);
    }
    expect(auto.getSnapshot().value).toBe("reviewing");
    expect(auto.getSnapshot().context.shots).toHaveLength(AUTO_CAPTURE_SHOTS);
  });

  it("every simple path keeps the rules: no patient data at rest, nothing after revocation", () => {
    let steps = 0;
    for (const input of [UNPAIRED, PAIRED]) {
      const simple = getSimplePaths(kioskMachine, { input, events: eventsFor, serializeState, filterEvents: simplePathEvents });
      expect(simple.length).toBeGreaterThan(40);
      for (const path of simple) {
        let revoked = false;
        for (const step of path.steps) {
          const value = String(step.state.value);
          expect(revoked && value !== "revoked").toBe(false);
          if (value === "revoked") revoked = true;
          if (WIPED_STATES.includes(value)) expect(holdsNoPatientData(step.state.context)).toBe(true);
          if (value === "idle" || value === "unpaired" || value === "revoked") expect(step.state.context.staff).toBeNull();
          steps++;
        }
      }
    }
    expect(steps).toBeGreaterThan(600);
  });

  it("the test model walks every shortest path on a live actor, checking each state as it goes", async () => {
    const model = createTestModel(kioskMachine, { input: PAIRED, events: eventsFor, serializeState } as never);
    const testPaths = model.getShortestPaths();
    expect(testPaths.length).toBeGreaterThan(8);
    for (const path of testPaths) {
      const actor = createActor(kioskMachine, { input: PAIRED }).start();
      await path.test({
        events: Object.fromEntries(ALL_EVENT_TYPES.map((type) => [type, ({ event }: { event: KioskEvent }) => actor.send(event)])),
        states: {
          "*": (state: AnyMachineSnapshot) => {
            expect(actor.getSnapshot().value).toEqual(state.value);
            if (WIPED_STATES.includes(String(state.value))) expect(holdsNoPatientData(actor.getSnapshot().context)).toBe(true);
          },
        },
      });
    }
  });

  it("uploads need at least 3 shots; fewer stay in review", () => {
    const actor = createActor(kioskMachine, { input: PAIRED }).start();
    actor.send({ type: "SIGNED_IN", staff: STAFF, session: "t" });
    actor.send({ type: "PATIENT_CHOSEN", patient: PATIENT });
    actor.send({ type: "START_CAPTURE" });
    actor.send({ type: "SHOT_TAKEN", shot: { id: "a", image: 1 } });
    actor.send({ type: "SHOT_TAKEN", shot: { id: "b", image: 2 } });
    actor.send({ type: "STOP_CAPTURE" });
    actor.send({ type: "UPLOAD" });
    expect(actor.getSnapshot().value).toBe("reviewing");
  });

  it("an upload keeps its queue while the network is down, resumes when it is back, and sends shots out of memory", () => {
    const resumed: number[] = [];
    const started: number[] = [];
    const actor = createActor(
      kioskMachine.provide({ actions: { resumeUpload: () => void resumed.push(1), startUpload: () => void started.push(1) } }),
      { input: PAIRED },
    ).start();
    actor.send({ type: "SIGNED_IN", staff: STAFF, session: "t" });
    actor.send({ type: "PATIENT_CHOSEN", patient: PATIENT });
    actor.send({ type: "START_CAPTURE" });
    for (const id of ["a", "b", "c"]) actor.send({ type: "SHOT_TAKEN", shot: { id, image: id } });
    actor.send({ type: "STOP_CAPTURE" });
    actor.send({ type: "UPLOAD" });
    expect(started).toHaveLength(1);
    expect(actor.getSnapshot().context.queue.map((s) => s.id)).toEqual(["a", "b", "c"]);
    actor.send({ type: "SHOT_SENT", id: "a" });
    actor.send({ type: "NETWORK_DOWN" });
    actor.send({ type: "IDLE_TIMEOUT" });
    expect(actor.getSnapshot().value).toBe("uploading");
    expect(actor.getSnapshot().context.online).toBe(false);
    expect(actor.getSnapshot().context.queue.map((s) => s.id)).toEqual(["b", "c"]);
    actor.send({ type: "NETWORK_UP" });
    expect(resumed).toHaveLength(1);
    actor.send({ type: "UPLOAD_SUCCEEDED" });
    expect(actor.getSnapshot().value).toBe("done");
    expect(holdsNoPatientData(actor.getSnapshot().context)).toBe(true);
  });
});

/** Random event sequences, with shot ids that the machine has seen or not. */
const arbitraryEvent: fc.Arbitrary<KioskEvent> = fc.oneof(
  fc.constantFrom<KioskEvent>(
    { type: "PAIRED", device: DEVICE },
    { type: "REVOKED" },
    { type: "SIGNED_IN", staff: STAFF, session: "s" },
    { type: "SIGN_OUT" },
    { type: "IDLE_TIMEOUT" },
    { type: "SESSION_ENDED" },
    { type: "PATIENT_CHOSEN", patient: PATIENT },
    { type: "CHANGE_PATIENT" },
    { type: "START_CAPTURE" },
    { type: "STOP_CAPTURE" },
    { type: "RETAKE" },
    { type: "UPLOAD" },
    { type: "UPLOAD_PROGRESS", progress: { step: "finalize", sent: 3, total: 3, reportIdentifier: "r" } },
    { type: "UPLOAD_SUCCEEDED" },
    { type: "UPLOAD_FAILED", message: "x" },
    { type: "NETWORK_DOWN" },
    { type: "NETWORK_UP" },
    { type: "FINISH" },
  ),
  fc.integer({ min: 0, max: 12 }).map((n): KioskEvent => ({ type: "SHOT_TAKEN", shot: { id: `s${n}`, image: n } })),
  fc.integer({ min: 0, max: 12 }).map((n): KioskEvent => ({ type: "DISCARD_SHOT", id: `s${n}` })),
  fc.integer({ min: 0, max: 12 }).map((n): KioskEvent => ({ type: "SHOT_SENT", id: `s${n}` })),
);

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
      const starts: number[] = [];
      const actor = createActor(kioskMachine.provide({ actions: { startUpload: () => void starts.push(1) } }), { input: PAIRED }).start();
      for (const event of before) if (actor.getSnapshot().status === "active") actor.send(event);
      const startsBefore = starts.length;
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
      expect(starts.length).toBe(startsBefore);
    },
  );

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
