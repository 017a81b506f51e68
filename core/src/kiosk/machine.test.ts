import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { type AnyMachineSnapshot, createActor, transition } from "xstate";
import { createTestModel, getAdjacencyMap, getShortestPaths, getSimplePaths } from "xstate/graph";
import {
  AUTO_CAPTURE_SHOTS,
  holdsNoPatientData,
  type KioskContext,
  type KioskEvent,
  type KioskInput,
  kioskMachine,
  MIN_KIOSK_SHOTS,
  type UploadStep,
} from "./machine.ts";

const DEVICE = { identifier: "dev-1", name: "Exam room 2", practice: "Dr. Ada Grey" };
const STAFF = { identifier: "staff-1", name: "Nina Nurse" };
const PATIENT = { identifier: "baby-1", name: "Baby Doe", date_of_birth: "2026-06-01" };

let shotSerial = 0;
const NEXT_STEP = { prepare: "upload", upload: "finalize", finalize: "finalize" } as const satisfies Record<UploadStep, UploadStep>;

/**
 * One event of every type, made for the snapshot it is sent in: each shot gets a fresh id, DISCARD_SHOT
 * names the first shot and SHOT_SENT the first queued one, and UPLOAD_PROGRESS moves to the next step.
 * So the abstract effect of an event type depends only on the abstract state (see `abstraction`).
 */
const eventsFor = (snapshot: AnyMachineSnapshot): KioskEvent[] => {
  const context = snapshot.context as KioskContext;
  const total = context.shots.length;
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
    { type: "SHOT_TAKEN", shot: { id: `shot-${++shotSerial}`, image: { pixels: "..." } } },
    { type: "STOP_CAPTURE" },
    { type: "DISCARD_SHOT", id: context.shots[0]?.id ?? "none" },
    { type: "RETAKE" },
    { type: "UPLOAD" },
    {
      type: "UPLOAD_PROGRESS",
      progress: { step: context.upload ? NEXT_STEP[context.upload.step] : "prepare", sent: total - context.queue.length, total, reportIdentifier: "rep-1" },
    },
    { type: "SHOT_SENT", id: context.queue[0]?.id ?? "none" },
    { type: "UPLOAD_SUCCEEDED" },
    { type: "UPLOAD_FAILED", message: "Oops! There was some error" },
    { type: "NETWORK_DOWN" },
    { type: "NETWORK_UP" },
    { type: "FINISH" },
  ];
};
const eventOf = (snapshot: AnyMachineSnapshot, type: string) => eventsFor(snapshot).find((e) => e.type === type)!;
const ALL_EVENT_TYPES = eventsFor(createActor(kioskMachine, { input: {} }).getSnapshot()).map((e) => e.type);

/** States that must never hold patient data. */
const WIPED_STATES = ["unpaired", "idle", "done", "revoked"];

/**
 * The full model's abstraction: everything the flow depends on (counts, flags and the upload step, not
 * contents). 0 to 10 shots, 0 to 10 queued, the network up or down, an error shown or not.
 */
const abstraction = (snapshot: AnyMachineSnapshot) => {
  const c = snapshot.context as KioskContext;
  return JSON.stringify([
    snapshot.value,
    c.device !== null,
    c.staff !== null,
    c.session !== null,
    c.patient !== null,
    c.shots.length,
    c.queue.length,
    c.online,
    c.error !== null,
    c.upload?.step ?? null,
  ]);
};
const byType = (event: KioskEvent) => event.type;

const UNPAIRED: KioskInput = {};
const PAIRED: KioskInput = { device: DEVICE, idleTimeoutMs: 60_000 };

type Hook = "startUpload" | "resumeUpload" | "cancelUpload" | "released";
/** The side-effect hooks the live actors ran since the last reset, as the app's would run. */
const hooks: Hook[] = [];
const record = (hook: Hook) => () => void hooks.push(hook);
// Provided once: `provide` builds a new machine, far too slow to repeat for each of thousands of paths.
const recordingMachine = kioskMachine.provide({
  actions: { startUpload: record("startUpload"), resumeUpload: record("resumeUpload"), cancelUpload: record("cancelUpload"), released: record("released") },
});
const liveActor = (input: KioskInput) => {
  hooks.length = 0;
  return createActor(recordingMachine, { input }).start();
};

const must = (ok: boolean, what: string) => {
  if (!ok) throw new Error(what);
};
/**
 * The rules every step of every path keeps: nothing about a patient in a wiped state, shots only with a
 * patient, the queue only of shots taken, an upload started once on entry and cancelled on leaving it,
 * released on every wipe, and a revoked device with nothing left.
 */
const checkStep = (before: AnyMachineSnapshot, event: KioskEvent, after: AnyMachineSnapshot, hooks: ReadonlyArray<Hook>, where: string) => {
  const from = String(before.value);
  const to = String(after.value);
  const c = after.context as KioskContext;
  const count = (hook: Hook) => hooks.filter((h) => h === hook).length;
  must(from !== "revoked", `${where}: a revoked device took an event`);
  if (WIPED_STATES.includes(to)) {
    must(holdsNoPatientData(c), `${where}: patient data left in ${to}`);
    must(c.staff === null && c.session === null, `${where}: a staff session left in ${to}`);
  }
  must(c.patient !== null || c.shots.length === 0, `${where}: shots without a patient`);
  must(c.shots.length <= AUTO_CAPTURE_SHOTS, `${where}: more than ${AUTO_CAPTURE_SHOTS} shots`);
  must(
    c.queue.every((q) => c.shots.some((s) => s.id === q.id)),
    `${where}: a queued shot that is not one of the patient's shots`,
  );
  must(to !== "uploading" || c.shots.length >= MIN_KIOSK_SHOTS, `${where}: uploading fewer than ${MIN_KIOSK_SHOTS} shots`);
  must(count("startUpload") === (from !== "uploading" && to === "uploading" ? 1 : 0), `${where}: startUpload ran ${count("startUpload")} times`);
  must(count("cancelUpload") === (from === "uploading" && to !== "uploading" ? 1 : 0), `${where}: cancelUpload ran ${count("cancelUpload")} times`);
  must(
    count("resumeUpload") === (from === "uploading" && to === "uploading" && event.type === "NETWORK_UP" ? 1 : 0),
    `${where}: resumeUpload ran ${count("resumeUpload")} times`,
  );
  if (from !== to && ["idle", "signedIn", "done", "revoked"].includes(to)) must(count("released") > 0, `${where}: entered ${to} without releasing`);
  if (to === "revoked") must(c.device === null && after.status === "done", `${where}: revoked but still enrolled or active`);
};

/** A revoked snapshot ignores every event: same state, same context, no action run. */
const checkRevokedIgnores = (revoked: AnyMachineSnapshot) => {
  for (const type of ALL_EVENT_TYPES) {
    const [next, actions] = transition(kioskMachine, revoked as never, eventOf(revoked, type));
    must(next.value === "revoked" && actions.length === 0, `revoked: ${type} was not ignored`);
    expect(next.context).toEqual(revoked.context);
  }
};

describe("kioskMachine: every state and transition (xstate/graph)", () => {
  // Keyed by `abstraction` and event type (xstate's own key types are opaque strings).
  const adjacency = getAdjacencyMap(kioskMachine, { input: UNPAIRED, events: eventsFor, serializeState: abstraction, serializeEvent: byType }) as unknown as Record<
    string,
    { state: AnyMachineSnapshot; transitions: Record<string, { event: KioskEvent; state: AnyMachineSnapshot }> }
  >;

  it("the full model reaches every state of the flow, with 0 to 10 shots, queues, network down and every upload step", () => {
    const snapshots = Object.values(adjacency).map((a) => a.state);
    expect([...new Set(snapshots.map((s) => String(s.value)))].sort()).toEqual(
      ["capturing", "done", "idle", "patientChosen", "reviewing", "revoked", "signedIn", "unpaired", "uploading"].sort(),
    );
    const uploading = snapshots.filter((s) => s.value === "uploading").map((s) => s.context as KioskContext);
    expect(new Set(uploading.map((c) => c.shots.length))).toEqual(new Set([3, 4, 5, 6, 7, 8, 9, 10]));
    expect(new Set(uploading.map((c) => c.upload?.step))).toEqual(new Set(["prepare", "upload", "finalize"]));
    expect(uploading.some((c) => !c.online && c.queue.length < c.shots.length && c.queue.length > 0)).toBe(true);
    expect(snapshots.some((s) => s.value === "capturing" && !(s.context as KioskContext).online)).toBe(true);
    // Every event type is offered in every state.
    for (const a of Object.values(adjacency)) expect(Object.keys(a.transitions).sort()).toEqual([...ALL_EVENT_TYPES].sort());
  });

  it("walks every transition of the full model on live actors, one actor per path, keeping the rules at every step", () => {
    const pending = new Map(Object.entries(adjacency).map(([key, a]) => [key, new Set(Object.keys(a.transitions))]));
    // A revoked (final, stopped) actor takes no events: its transitions are checked as pure transitions.
    for (const [key, a] of Object.entries(adjacency)) {
      if (a.state.status !== "done") continue;
      expect(a.state.value).toBe("revoked");
      checkRevokedIgnores(a.state);
      pending.delete(key);
    }
    // The model's edges as keys, computed once: the routing below runs thousands of times.
    const edges = new Map(
      Object.entries(adjacency).map(([key, a]) => [
        key,
        Object.entries(a.transitions)
          .filter(([, t]) => t.state.status !== "done")
          .map(([type, t]) => ({ type, next: abstraction(t.state) })),
      ]),
    );
    /** Event types leading from `from` to the nearest state with a transition not yet walked (BFS). */
    const route = (from: string): string[] | null => {
      const parent = new Map<string, { prev: string; type: string } | null>([[from, null]]);
      const queue = [from];
      for (let i = 0; i < queue.length; i++) {
        const key = queue[i]!;
        if (pending.get(key)?.size) {
          const types: string[] = [];
          for (let at = parent.get(key); at; at = parent.get(at.prev)) types.unshift(at.type);
          return types;
        }
        for (const { type, next } of edges.get(key)!) {
          if (!parent.has(next)) {
            parent.set(next, { prev: key, type });
            queue.push(next);
          }
        }
      }
      return null;
    };
    const initial = abstraction(createActor(kioskMachine, { input: UNPAIRED }).getSnapshot());
    let paths = 0;
    let steps = 0;
    const walked = new Set<string>();
    for (;;) {
      let plan = route(initial);
      if (plan === null) break;
      paths++;
      const actor = liveActor(UNPAIRED);
      let key = abstraction(actor.getSnapshot());
      expect(key).toBe(initial);
      while (actor.getSnapshot().status === "active") {
        let type: string;
        if (plan.length > 0) type = plan.shift()!;
        else {
          const open = [...(pending.get(key) ?? [])];
          if (open.length === 0) {
            plan = route(key) ?? [];
            if (plan.length === 0) break;
            continue;
          }
          // REVOKED ends the path, so it is walked last from each state.
          type = open.find((t) => t !== "REVOKED") ?? open[0]!;
        }
        pending.get(key)?.delete(type);
        const expected = abstraction(adjacency[key]!.transitions[type]!.state);
        const before = actor.getSnapshot();
        const event = eventOf(before, type);
        hooks.length = 0;
        actor.send(event);
        const after = actor.getSnapshot();
        const where = `${key} --${type}-->`;
        must(abstraction(after) === expected, `${where} reached ${abstraction(after)}, the model says ${expected}`);
        // A revoked snapshot's refusals were checked once per abstract state above.
        checkStep(before, event, after, hooks, where);
        walked.add(`${key} ${type}`);
        key = abstraction(after);
        steps++;
      }
      actor.stop();
    }
    expect([...pending.values()].every((open) => open.size === 0)).toBe(true);
    const transitions = Object.values(adjacency).reduce((n, a) => n + (a.state.status === "done" ? 0 : Object.keys(a.transitions).length), 0);
    expect(walked.size).toBe(transitions);
    expect(transitions).toBeGreaterThan(8_000);
    expect(paths).toBeGreaterThan(400);
    expect(steps).toBeGreaterThanOrEqual(transitions);
  });

  it("a paired tablet starts on the attract screen, in a state of the model", () => {
    const actor = liveActor(PAIRED);
    expect(actor.getSnapshot().value).toBe("idle");
    expect(adjacency[abstraction(actor.getSnapshot())]).toBeDefined();
  });

  it("the happy path: pair, sign in, choose, capture, review, upload, done, attract screen", () => {
    const paths = getShortestPaths(kioskMachine, { input: UNPAIRED, events: eventsFor, serializeState: abstraction, serializeEvent: byType });
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
    const actor = liveActor(PAIRED);
    for (const e of ["SIGNED_IN", "PATIENT_CHOSEN", "START_CAPTURE"] as const) actor.send(eventOf(actor.getSnapshot(), e));
    for (let i = 0; i < AUTO_CAPTURE_SHOTS; i++) {
      expect(actor.getSnapshot().value).toBe("capturing");
      actor.send(eventOf(actor.getSnapshot(), "SHOT_TAKEN"));
    }
    // Auto Capture: the 10th good shot moves to review by itself.
    expect(actor.getSnapshot().value).toBe("reviewing");
    expect(actor.getSnapshot().context.shots).toHaveLength(AUTO_CAPTURE_SHOTS);
    actor.send({ type: "UPLOAD" });
    expect(actor.getSnapshot().context.upload).toEqual({ step: "prepare", sent: 0, total: AUTO_CAPTURE_SHOTS, reportIdentifier: null });
    actor.send(eventOf(actor.getSnapshot(), "UPLOAD_PROGRESS"));
    expect(actor.getSnapshot().context.upload?.step).toBe("upload");
    for (let i = 0; i < AUTO_CAPTURE_SHOTS; i++) actor.send(eventOf(actor.getSnapshot(), "SHOT_SENT"));
    actor.send(eventOf(actor.getSnapshot(), "UPLOAD_PROGRESS"));
    expect(actor.getSnapshot().context.upload).toEqual({ step: "finalize", sent: AUTO_CAPTURE_SHOTS, total: AUTO_CAPTURE_SHOTS, reportIdentifier: "rep-1" });
    expect(actor.getSnapshot().context.queue).toEqual([]);
    actor.send({ type: "UPLOAD_SUCCEEDED" });
    expect(actor.getSnapshot().value).toBe("done");
    expect(holdsNoPatientData(actor.getSnapshot().context)).toBe(true);
    actor.send({ type: "FINISH" });
    expect(actor.getSnapshot().value).toBe("idle");
    expect(hooks.filter((h) => h === "startUpload")).toHaveLength(1);
    expect(hooks.filter((h) => h === "cancelUpload")).toHaveLength(1);
  });

  it("every simple path (no state twice) of the flow's decisions keeps the rules on a live actor", () => {
    // Simple paths multiply past counting once the network, progress reports or a 4th shot join in
    // (tens of millions): those are covered edge by edge by the walk above and by the properties below.
    const filterEvents = (snapshot: AnyMachineSnapshot, event: KioskEvent) =>
      !(event.type === "SHOT_TAKEN" && (snapshot.context as KioskContext).shots.length >= MIN_KIOSK_SHOTS) &&
      !["NETWORK_DOWN", "NETWORK_UP", "UPLOAD_PROGRESS", "SHOT_SENT"].includes(event.type);
    let steps = 0;
    let longest = 0;
    for (const input of [UNPAIRED, PAIRED]) {
      const simple = getSimplePaths(kioskMachine, { input, events: eventsFor, serializeState: abstraction, serializeEvent: byType, filterEvents });
      expect(simple.length).toBeGreaterThan(40);
      for (const path of simple) {
        const actor = liveActor(input);
        for (const step of path.steps.slice(1)) {
          const before = actor.getSnapshot();
          const event = eventOf(before, step.event.type);
          hooks.length = 0;
          actor.send(event);
          const after = actor.getSnapshot();
          must(abstraction(after) === abstraction(step.state), `simple path ${path.steps.map((s) => s.event.type).join(" ")}: diverged`);
          checkStep(before, event, after, hooks, `simple path step ${step.event.type}`);
          steps++;
        }
        longest = Math.max(longest, path.steps.length);
        actor.stop();
      }
    }
    expect(steps).toBeGreaterThan(600);
    expect(longest).toBeGreaterThan(10);
  });

  it("the test model walks every shortest path on a live actor, checking each state as it goes", async () => {
    const model = createTestModel(kioskMachine, { input: PAIRED, events: eventsFor, serializeState: abstraction, serializeEvent: byType } as never);
    const testPaths = model.getShortestPaths();
    // Paths contained in longer ones are dropped, so fewer paths than states, but every state is on one.
    const onPaths = new Set(testPaths.flatMap((p) => p.steps.map((s) => abstraction(s.state))));
    const reachable = Object.keys(getAdjacencyMap(kioskMachine, { input: PAIRED, events: eventsFor, serializeState: abstraction, serializeEvent: byType }));
    expect(reachable.length).toBeGreaterThan(400);
    expect([...onPaths].sort()).toEqual([...reachable].sort());
    for (const path of testPaths) {
      const actor = liveActor(PAIRED);
      await path.test({
        events: Object.fromEntries(ALL_EVENT_TYPES.map((type) => [type, () => void actor.send(eventOf(actor.getSnapshot(), type))])),
        states: {
          "*": (state: AnyMachineSnapshot) => {
            must(abstraction(actor.getSnapshot()) === abstraction(state), `test model: the actor is in ${abstraction(actor.getSnapshot())}, the model in ${abstraction(state)}`);
            if (WIPED_STATES.includes(String(state.value))) must(holdsNoPatientData(actor.getSnapshot().context), "test model: patient data at rest");
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
