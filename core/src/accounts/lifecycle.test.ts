import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import { adjacencyMapToArray, createTestModel, getAdjacencyMap, getShortestPaths, getSimplePaths, toDirectedGraph } from "xstate/graph";
import { changeStatus } from "./service.ts";
import { type AccountContext, type AccountEvent, accountStatusMachine, nextStatus, USER_STATUSES, USER_TYPES, type UserStatus, type UserType } from "./lifecycle.ts";
import { authenticate } from "./service.ts";
import { aSignUpOf, followVerificationLink, lastVerificationLink, makeTestWorld, signInAs } from "../testing/index.ts";
import { signUp } from "./service.ts";

/** Every event the machine knows, with both values of the payload flag. */
const ALL_EVENTS: ReadonlyArray<AccountEvent> = [
  { type: "EMAIL_VERIFIED" },
  { type: "FIRST_BABY_REGISTERED", needsApproval: false },
  { type: "FIRST_BABY_REGISTERED", needsApproval: true },
  { type: "APPROVED" },
  { type: "REJECTED" },
  { type: "BLOCKED" },
  { type: "UNBLOCKED" },
];

const fresh = (type: UserType): AccountContext => ({ type, emailVerified: false });
/** Explore only the events a state accepts (an ignored event is no transition). */
const traversal = (type: UserType) => ({
  input: fresh(type),
  events: ALL_EVENTS,
  filterEvents: (state: { can: (e: AccountEvent) => boolean }, event: AccountEvent) => state.can(event),
});
const edgeKey = (source: string, event: string, target: string) => `${source} --${event}--> ${target}`;

/** Every transition of the definition, one edge per (source, event, candidate target). */
const definedEdges = () => {
  const root = toDirectedGraph(accountStatusMachine);
  return root.children.flatMap((node) => node.edges.map((e) => ({ key: edgeKey(e.source.key, e.label.text, e.target.key), guard: e.transition.guard })));
};

/** The transitions actually taken (state changed) when exploring every event from every reachable state. */
const takenEdges = (type: UserType) =>
  adjacencyMapToArray(getAdjacencyMap(accountStatusMachine, { input: fresh(type), events: ALL_EVENTS }))
    .filter(({ state, event }) => state.can(event))
    .map(({ state, event, nextState }) => edgeKey(String(state.value), event.type, String(nextState.value)));

describe("accountStatusMachine: model-based coverage with xstate/graph", () => {
  it("defines exactly the five statuses, and each candidate transition is identified by source, event and target", () => {
    expect(Object.keys(accountStatusMachine.root.states).sort()).toEqual([...USER_STATUSES].sort());
    const keys = definedEdges().map((e) => e.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("reaches every status from a fresh account of some type, and each status by its expected shortest path", () => {
    const reached = new Map<string, string[]>();
    for (const type of USER_TYPES) {
      for (const path of getShortestPaths(accountStatusMachine, traversal(type))) {
        // States differ by context too (Blocked before and after verification): keep the shortest per status.
        const key = `${type}:${String(path.state.value)}`;
        const events = path.steps.slice(1).map((s) => s.event.type);
        const known = reached.get(key);
        if (!known || events.length < known.length) reached.set(key, events);
      }
    }
    const statesReached = new Set([...reached.keys()].map((k) => k.split(":")[1]));
    expect([...statesReached].sort()).toEqual([...USER_STATUSES].sort());

    expect(reached.get("parent:EmailVerificationRequired")).toEqual([]);
    expect(reached.get("parent:AdditionalInformationRequired")).toEqual(["EMAIL_VERIFIED"]);
    expect(reached.get("parent:Active")).toEqual(["EMAIL_VERIFIED", "FIRST_BABY_REGISTERED"]);
    expect(reached.get("parent:WaitingApproval")).toEqual(["EMAIL_VERIFIED", "FIRST_BABY_REGISTERED"]);
    expect(reached.get("parent:Blocked")).toEqual(["BLOCKED"]);
    expect(reached.get("physician:Active")).toEqual(["EMAIL_VERIFIED"]);
    expect(reached.get("other:WaitingApproval")).toEqual(["EMAIL_VERIFIED"]);
    expect(reached.get("other:Active")).toEqual(["EMAIL_VERIFIED", "APPROVED"]);
  });

  it("reaches per type exactly the statuses of the api contract", () => {
    const statesOf = (type: UserType) =>
      [...new Set(getShortestPaths(accountStatusMachine, traversal(type)).map((p) => String(p.state.value)))].sort();
    expect(statesOf("parent")).toEqual([...USER_STATUSES].sort());
    expect(statesOf("other")).toEqual(["Active", "Blocked", "EmailVerificationRequired", "WaitingApproval"]);
    // A physician (and staff, reviewers, admins) is never asked for more information nor waits for approval.
    for (const type of ["physician", "physician_staff", "reviewer", "admin"] as const) {
      expect(statesOf(type)).toEqual(["Active", "Blocked", "EmailVerificationRequired"]);
    }
  });

  it("exercises every transition of the machine definition (over all account types)", () => {
    const defined = new Set(definedEdges().map((e) => e.key));
    const taken = new Set(USER_TYPES.flatMap(takenEdges));
    expect([...defined].filter((k) => !taken.has(k))).toEqual([]);
    // ...and nothing is taken that the definition does not have.
    expect([...taken].filter((k) => !defined.has(k))).toEqual([]);
    expect(defined.size).toBe(13);
  });

  it("agrees with nextStatus on every step of every simple path (the persisted status is the whole state)", () => {
    let steps = 0;
    for (const type of USER_TYPES) {
      for (const path of getSimplePaths(accountStatusMachine, traversal(type))) {
        let status: UserStatus = "EmailVerificationRequired";
        let context = fresh(type);
        for (const step of path.steps.slice(1)) {
          const next = nextStatus(status, context, step.event);
          expect(next).toBe(step.state.value);
          status = next as UserStatus;
          if (step.event.type === "EMAIL_VERIFIED") context = { ...context, emailVerified: true };
          expect(step.state.context).toEqual(context);
          steps++;
        }
      }
    }
    expect(steps).toBeGreaterThan(20);
  });
});

describe("accountStatusMachine: model-based test of the account use cases on the in-memory world", () => {
  /**
   * The machine is the model; the system is the service: EMAIL_VERIFIED by following the mailed
   * link, every other event through changeStatus (admin and baby registration). After each step
   * the stored status must equal the model's, and only a non-Blocked account can authenticate.
   */
  for (const type of ["parent", "physician", "other"] as const) {
    const model = createTestModel(accountStatusMachine, traversal(type));
    const paths = model.getSimplePaths(traversal(type));

    it(`follows all ${paths.length} simple paths of a ${type}`, async () => {
      expect(paths.length).toBeGreaterThan(0);
      for (const path of paths) {
        const world = makeTestWorld();
        const payload = aSignUpOf(type);
        await world.run(signUp(payload));
        const id = () => world.userByEmail(payload.email)!.id;
        let token: string | null = null;
        const signInIfAllowed = async (status: string) => {
          if (status !== "Blocked" && status !== "EmailVerificationRequired" && token === null) token = (await signInAs(world, payload)).token;
        };
        await path.test({
          events: {
            EMAIL_VERIFIED: async () => void (await world.run(followVerificationLink(lastVerificationLink(world, payload.email)))),
            FIRST_BABY_REGISTERED: async ({ event }) => void (await world.run(changeStatus(id(), event as AccountEvent, null))),
            APPROVED: async () => void (await world.run(changeStatus(id(), { type: "APPROVED" }, "admin"))),
            REJECTED: async () => void (await world.run(changeStatus(id(), { type: "REJECTED" }, "admin"))),
            BLOCKED: async () => void (await world.run(changeStatus(id(), { type: "BLOCKED" }, "admin"))),
            UNBLOCKED: async () => void (await world.run(changeStatus(id(), { type: "UNBLOCKED" }, "admin"))),
          },
          states: Object.fromEntries(
            USER_STATUSES.map((status) => [
              status,
              async () => {
                expect(world.userByEmail(payload.email)?.status).toBe(status);
                if (status === "Blocked") {
                  // Blocking revokes every session.
                  if (token !== null) expect((await world.exit(authenticate(token)))._tag).toBe("Failure");
                  token = null;
                }
                await signInIfAllowed(status);
                if (token !== null) expect((await world.exit(authenticate(token)))._tag).toBe("Success");
              },
            ]),
          ),
        });
      }
    });
  }
});

// ---- Properties over arbitrary event sequences ---------------------------------------------------

const arbEvent = fc.constantFrom(...ALL_EVENTS);
const arbType = fc.constantFrom(...USER_TYPES);

describe("accountStatusMachine: properties", () => {
  test.prop([arbType, fc.array(arbEvent, { maxLength: 30 })])("no sequence reaches Active before an accepted EMAIL_VERIFIED", (type, events) => {
    const actor = createActor(accountStatusMachine, { input: fresh(type) }).start();
    let verified = false;
    for (const event of events) {
      const before = actor.getSnapshot();
      if (event.type === "EMAIL_VERIFIED" && before.can(event)) verified = true;
      actor.send(event);
      if (actor.getSnapshot().value === "Active") expect(verified).toBe(true);
      expect(actor.getSnapshot().context.emailVerified).toBe(verified);
    }
    actor.stop();
  });

  test.prop([arbType, fc.array(arbEvent, { maxLength: 30 })])("nextStatus agrees with running the machine, step by step", (type, events) => {
    const actor = createActor(accountStatusMachine, { input: fresh(type) }).start();
    // What the server persists: the status, and whether the e-mail was verified.
    let status: UserStatus = "EmailVerificationRequired";
    let emailVerified = false;
    for (const event of events) {
      const snapshot = actor.getSnapshot();
      const next = nextStatus(status, { type, emailVerified }, event);
      actor.send(event);
      const after = actor.getSnapshot();
      if (snapshot.can(event)) {
        expect(next).toBe(after.value);
        status = next as UserStatus;
        if (event.type === "EMAIL_VERIFIED") emailVerified = true;
      } else {
        expect(next).toBeNull();
        expect(after.value).toBe(snapshot.value);
      }
      expect(after.value).toBe(status);
      expect(after.context.emailVerified).toBe(emailVerified);
    }
    actor.stop();
  });

  test.prop([arbType, fc.boolean(), arbEvent])("a Blocked account leaves only with UNBLOCKED", (type, emailVerified, event) => {
    const next = nextStatus("Blocked", { type, emailVerified }, event);
    if (event.type === "UNBLOCKED") expect(next).toBe(emailVerified ? "Active" : "EmailVerificationRequired");
    else expect(next).toBeNull();
  });

  test.prop([arbType, fc.array(arbEvent, { maxLength: 30 })])("once Blocked, the machine stays Blocked until UNBLOCKED", (type, events) => {
    const actor = createActor(accountStatusMachine, { input: fresh(type) }).start();
    for (const event of events) {
      const wasBlocked = actor.getSnapshot().value === "Blocked";
      actor.send(event);
      if (wasBlocked && event.type !== "UNBLOCKED") expect(actor.getSnapshot().value).toBe("Blocked");
      if (wasBlocked && event.type === "UNBLOCKED") expect(actor.getSnapshot().value).not.toBe("Blocked");
    }
    actor.stop();
  });

  test.prop([fc.constantFrom(...USER_STATUSES), arbType, fc.boolean()])("BLOCKED is accepted from every status but Blocked", (status, type, emailVerified) => {
    const next = nextStatus(status, { type, emailVerified }, { type: "BLOCKED" });
    expect(next).toBe(status === "Blocked" ? null : "Blocked");
  });

  test.prop([fc.constantFrom(...USER_STATUSES), arbType, fc.boolean(), arbEvent])("nextStatus never answers an unknown status", (status, type, emailVerified, event) => {
    const next = nextStatus(status, { type, emailVerified }, event);
    if (next !== null) expect(USER_STATUSES).toContain(next);
  });
});
