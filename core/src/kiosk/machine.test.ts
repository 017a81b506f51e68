import { describe, expect, it } from "vitest";
import { type AnyMachineSnapshot, createActor, transition } from "xstate";
import { createTestModel, getAdjacencyMap, getShortestPaths, getSimplePaths } from "xstate/graph";
import { AUTO_CAPTURE_SHOTS } from "../capture/rules.ts";
import { abstraction, ALL_EVENT_TYPES, byType, checkRevokedIgnores, checkStep, eventOf, eventsFor, hooks, liveActor, must, PAIRED, PATIENT, REVOCATION, STAFF, STAFF_MIN_SHOTS, UNPAIRED, WIPED_STATES } from "../testing/kiosk-machine.ts";
import { holdsNoPatientData, type KioskContext, type KioskEvent, kioskMachine } from "./machine.ts";

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
    expect(new Set(uploading.map((c) => c.shots.length))).toEqual(new Set(Array.from({ length: AUTO_CAPTURE_SHOTS - STAFF_MIN_SHOTS + 1 }, (_, i) => STAFF_MIN_SHOTS + i)));
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
    // The staff minimum of 5 (ADR 0044) leaves six shot counts to upload with: about 8,000 transitions.
    expect(transitions).toBeGreaterThan(7_500);
    expect(paths).toBeGreaterThan(350);
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
      ...Array(STAFF_MIN_SHOTS).fill("SHOT_TAKEN"),
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
    for (let i = 0; i < AUTO_CAPTURE_SHOTS; i++) actor.send(eventOf(actor.getSnapshot(), "FILE_SENT"));
    actor.send(eventOf(actor.getSnapshot(), "UPLOAD_PROGRESS"));
    expect(actor.getSnapshot().context.upload).toEqual({ step: "finalize", sent: AUTO_CAPTURE_SHOTS, total: AUTO_CAPTURE_SHOTS, reportIdentifier: "rep-1" });
    expect(actor.getSnapshot().context.queue).toEqual([]);
    actor.send({ type: "UPLOAD_SUCCEEDED" });
    expect(actor.getSnapshot().value).toBe("done");
    expect(holdsNoPatientData(actor.getSnapshot().context)).toBe(true);
    actor.send({ type: "FINISH" });
    expect(actor.getSnapshot().value).toBe("idle");
    expect(hooks.filter((h) => h === "started")).toHaveLength(1);
    expect(hooks.filter((h) => h === "stopped")).toHaveLength(1);
  });

  it("every simple path (no state twice) of the flow's decisions keeps the rules on a live actor", () => {
    // Simple paths multiply past counting once the network, progress reports or a 4th shot join in
    // (tens of millions): those are covered edge by edge by the walk above and by the properties below.
    const filterEvents = (snapshot: AnyMachineSnapshot, event: KioskEvent) =>
      !(event.type === "SHOT_TAKEN" && (snapshot.context as KioskContext).shots.length >= STAFF_MIN_SHOTS) &&
      !["NETWORK_DOWN", "NETWORK_UP", "UPLOAD_PROGRESS", "FILE_SENT"].includes(event.type);
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
    expect(reachable.length).toBeGreaterThan(350);
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
});

describe("kioskMachine: a revoked tablet is told when and why (ADR 0170)", () => {
  it("REVOKED mid-review keeps the server's when and why, wipes the patient, and a later refusal changes nothing", () => {
    const actor = liveActor(PAIRED);
    actor.send({ type: "SIGNED_IN", staff: STAFF, session: "s" });
    actor.send({ type: "PATIENT_CHOSEN", patient: PATIENT });
    actor.send({ type: "START_CAPTURE" });
    actor.send(eventOf(actor.getSnapshot(), "SHOT_TAKEN"));
    actor.send({ type: "STOP_CAPTURE" });
    expect(actor.getSnapshot().value).toBe("reviewing");
    expect(actor.getSnapshot().context.revocation).toBeNull();
    actor.send({ type: "REVOKED", revocation: REVOCATION });
    const revoked = actor.getSnapshot();
    expect(revoked.value).toBe("revoked");
    expect(revoked.context.revocation).toEqual(REVOCATION);
    expect(holdsNoPatientData(revoked.context)).toBe(true);
    expect(revoked.context.device).toBeNull();
    expect(transition(kioskMachine, revoked, { type: "REVOKED" })[0].context.revocation).toEqual(REVOCATION);
  });

  it("a credential the server no longer knows (401) revokes without a when or why", () => {
    const actor = liveActor(PAIRED);
    actor.send({ type: "REVOKED" });
    expect(actor.getSnapshot().value).toBe("revoked");
    expect(actor.getSnapshot().context.revocation).toBeNull();
  });
});
