import { fc, test } from "@fast-check/vitest";
import { Exit } from "effect";
import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import { createTestModel, getShortestPaths, getSimplePaths } from "xstate/graph";
import type { Caller } from "../accounts/model.ts";
import { createVerifiedUser } from "../accounts/service.ts";
import { USER_STATUSES, type UserType } from "../accounts/lifecycle.ts";
import { makeTestWorld } from "../testing/memory.ts";
import { testAppCode } from "../testing/second-factors.ts";
import { confirmAuthenticatorApp, startAuthenticatorApp } from "../accounts/second-factor.ts";
import { callerIn } from "../testing/accounts.ts";
import { makeOnboardingWorld, quizAnswers, TEST_QUIZ_KEY } from "../testing/onboarding-memory.ts";
import { applyOnboardingEvent, factsOf, type OnboardingEvent, type OnboardingFacts, onboardingFlags, onboardingMachine, onboardingOpen, onboardingStep } from "./lifecycle.ts";
import { NO_PHYSICIAN } from "./model.ts";
import { acceptDisclaimer, approve, registerBaby, rejectAccount, signBaa, updateQuiz } from "./service.ts";

const EVENTS: ReadonlyArray<OnboardingEvent> = [
  { type: "FIRST_BABY_REGISTERED", needsApproval: false },
  { type: "FIRST_BABY_REGISTERED", needsApproval: true },
  { type: "APPROVED" },
  { type: "REJECTED" },
  { type: "BAA_SIGNED" },
  { type: "SECOND_FACTOR_SET" },
  { type: "DISCLAIMER_ACCEPTED" },
  { type: "QUIZ_PASSED", mode: "cap" },
  { type: "QUIZ_PASSED", mode: "nocap" },
  { type: "QUIZ_FAILED", mode: "cap" },
  { type: "QUIZ_FAILED", mode: "nocap" },
];

/** Where each kind of account starts onboarding, right after its e-mail is verified. */
const START: Record<"parent" | "physician" | "physician_staff" | "other" | "admin", OnboardingFacts> = {
  parent: { type: "parent", status: "AdditionalInformationRequired", disclaimerAccepted: false, baaSigned: false, quizPassed: false, secondFactorSet: false },
  physician: { type: "physician", status: "Active", disclaimerAccepted: false, baaSigned: false, quizPassed: false, secondFactorSet: false },
  physician_staff: { type: "physician_staff", status: "Active", disclaimerAccepted: false, baaSigned: false, quizPassed: false, secondFactorSet: false },
  other: { type: "other", status: "WaitingApproval", disclaimerAccepted: false, baaSigned: false, quizPassed: false, secondFactorSet: false },
  admin: { type: "admin", status: "Active", disclaimerAccepted: false, baaSigned: false, quizPassed: false, secondFactorSet: false },
};

const stepsOf = (type: keyof typeof START) => new Set(getShortestPaths(onboardingMachine, { input: START[type], events: EVENTS }).map((p) => String(p.state.value)));

describe("onboardingMachine: every path (xstate/graph)", () => {
  it("reaches exactly the steps each kind of account goes through", () => {
    expect([...stepsOf("parent")].sort()).toEqual(["babyDetails", "closed", "disclaimer", "done", "quiz", "waitingApproval"]);
    expect([...stepsOf("physician")].sort()).toEqual(["baa", "disclaimer", "done", "quiz", "secondFactor"]);
    expect([...stepsOf("physician_staff")].sort()).toEqual(["disclaimer", "done", "quiz", "secondFactor"]);
    expect([...stepsOf("other")].sort()).toEqual(["closed", "disclaimer", "done", "waitingApproval"]);
    expect([...stepsOf("admin")].sort()).toEqual(["disclaimer", "done", "secondFactor"]);
  });

  it("orders the physician's first login: BAA, second factor, disclaimer, quiz", () => {
    const paths = getShortestPaths(onboardingMachine, { input: START.physician, events: EVENTS });
    const done = paths.find((p) => p.state.value === "done" && p.state.context.quizPassed && p.state.context.baaSigned && p.state.context.disclaimerAccepted);
    expect(done?.steps.slice(1).map((s) => s.event.type).sort()).toEqual(["BAA_SIGNED", "SECOND_FACTOR_SET", "DISCLAIMER_ACCEPTED", "QUIZ_PASSED"].sort());
    // No patient before two-step sign-in: after the BAA the only way on is setting it up.
    expect(onboardingStep({ ...START.physician, baaSigned: true })).toBe("secondFactor");
    expect(onboardingStep({ ...START.physician })).toBe("baa");
    expect(onboardingStep({ ...START.physician, baaSigned: true, secondFactorSet: true })).toBe("disclaimer");
    expect(onboardingStep({ ...START.physician_staff })).toBe("secondFactor");
    expect(onboardingStep({ ...START.parent, status: "Active" })).toBe("disclaimer");
  });

  it("agrees with the pure functions on every step of every simple path (the stored facts are the whole state)", () => {
    let steps = 0;
    for (const type of Object.keys(START) as Array<keyof typeof START>) {
      for (const path of getSimplePaths(onboardingMachine, { input: START[type], events: EVENTS })) {
        let facts = START[type];
        expect(onboardingStep(facts)).toBe(path.steps[0]!.state.value);
        for (const step of path.steps.slice(1)) {
          const next = applyOnboardingEvent(facts, step.event);
          expect(next).not.toBeNull();
          expect(next!.step).toBe(step.state.value);
          expect(next!.facts).toEqual(step.state.context);
          facts = next!.facts;
          steps++;
        }
      }
    }
    expect(steps).toBeGreaterThan(50);
  });

  test.prop([fc.constantFrom(...(Object.keys(START) as Array<keyof typeof START>)), fc.array(fc.constantFrom(...EVENTS), { maxLength: 25 })])(
    "flags follow the facts: first login until disclaimer (and BAA for physicians), quiz time until a pass",
    (type, events) => {
      const actor = createActor(onboardingMachine, { input: START[type] }).start();
      for (const event of events) {
        if (actor.getSnapshot().status !== "active") break; // `closed` is final
        actor.send(event);
        const { context, value } = actor.getSnapshot();
        const flags = onboardingFlags(context);
        expect(flags.step).toBe(value);
        expect(flags.first_time_login).toBe(!context.disclaimerAccepted || (context.type === "physician" && !context.baaSigned));
        expect(flags.is_quiz_time).toBe(["parent", "physician", "physician_staff"].includes(context.type) && !context.quizPassed);
        if (value === "done") expect(flags.first_time_login || flags.is_quiz_time).toBe(false);
        // Nothing but the BAA is asked of a non-physician, and nobody leaves `closed`.
        if (context.type !== "physician") expect(context.baaSigned).toBe(false);
      }
      actor.stop();
    },
  );

  test.prop([
    fc.constantFrom(...(Object.keys(START) as Array<keyof typeof START>)),
    fc.array(fc.constantFrom(...EVENTS.filter((e) => !(e.type === "QUIZ_PASSED" && e.mode === "cap"))), { maxLength: 25 }),
  ])("only a pass of the cap quiz clears the quiz due: no-cap passes and failures never do", (type, events) => {
    const actor = createActor(onboardingMachine, { input: START[type] }).start();
    for (const event of events) {
      if (actor.getSnapshot().status !== "active") break; // `closed` is final
      actor.send(event);
    }
    expect(actor.getSnapshot().context.quizPassed).toBe(false);
    actor.stop();
  });
});

describe("onboardingOpen: the account may keep its babies up to date", () => {
  test.prop([fc.constantFrom(...USER_STATUSES), fc.constantFrom(...(Object.keys(START) as Array<keyof typeof START>)), fc.boolean(), fc.boolean(), fc.boolean()])(
    "once verified and until closed, whatever else onboarding still asks",
    (status, type, disclaimerAccepted, baaSigned, quizPassed) => {
      const open = onboardingOpen({ type, status, disclaimerAccepted, baaSigned, quizPassed, secondFactorSet: false });
      expect(open).toBe(status !== "EmailVerificationRequired" && status !== "Blocked");
    },
  );
});

// ---- The model against the use cases -------------------------------------------------------------------

describe("onboardingMachine: model-based test of the onboarding use cases (in-memory world)", () => {
  for (const type of ["parent", "physician", "physician_staff", "other"] as const) {
    const model = createTestModel(onboardingMachine, { input: START[type], events: EVENTS });
    const paths = model.getSimplePaths();

    it(`follows all ${paths.length} simple paths of a ${type} through the services`, async () => {
      expect(paths.length).toBeGreaterThan(0);
      for (const path of paths) {
        const world = makeTestWorld();
        const ob = makeOnboardingWorld(world);
        const admin = await world.run(createVerifiedUser({ email: `admin.${type}@example.com`, password: "Secret#123", type: "admin", firstName: "Ada", lastName: "Admin" }));
        const doctor = await world.run(createVerifiedUser({ email: `doctor.${type}@example.com`, password: "Secret#123", type: "physician", firstName: "Dora", lastName: "Doctor" }));
        const created = await world.run(createVerifiedUser({ email: `${type}@example.com`, password: "Secret#123", type: type as UserType, firstName: "Fay", lastName: "Subject" }));
        world.users.set(created.id, { ...created, status: START[type].status });
        const as = (id: string): Caller => callerIn(world, id);
        const me = () => as(created.id);
        /**
         * Sends one event to the system. When the model allows it, the use case must succeed; when
         * it does not, the use case may refuse or answer idempotently, but the stored facts stay.
         */
        const send = async (event: OnboardingEvent, run: () => Promise<Exit.Exit<unknown, unknown>>) => {
          const before = factsOf(world.users.get(created.id)!);
          const allowed = applyOnboardingEvent(before, event) !== null;
          const exit = await run();
          if (allowed) expect(exit._tag, `${event.type} should succeed from ${onboardingStep(before)}`).toBe("Success");
          else expect(factsOf(world.users.get(created.id)!)).toEqual(before);
          return exit;
        };
        await path.test({
          events: {
            FIRST_BABY_REGISTERED: async ({ event }) => {
              const needsApproval = (event as unknown as { needsApproval: boolean }).needsApproval;
              const exit = await send(event as OnboardingEvent, () =>
                ob.exitAs(
                  me(),
                  registerBaby({ physician_identifier: needsApproval ? NO_PHYSICIAN : doctor.id, first_name: "Bo", last_name: "Baby", date_of_birth: "2025-11-01", relation: "mother" }),
                ),
              );
              if (Exit.isSuccess(exit) && onboardingStep(START[type]) === "babyDetails") {
                expect(["WaitingApproval", "Active"]).toContain((exit.value as { results: { parent_status: string } }).results.parent_status);
              }
            },
            APPROVED: async ({ event }) => void (await send(event as OnboardingEvent, () => ob.exitAs(as(admin.id), approve(created.id, admin.id)))),
            REJECTED: async ({ event }) => void (await send(event as OnboardingEvent, () => ob.exitAs(as(admin.id), rejectAccount({ identifier: created.id })))),
            BAA_SIGNED: async ({ event }) =>
              void (await send(event as OnboardingEvent, () => ob.exitAs(me(), signBaa({ name: "Fay Subject", covered_entity: "Subject Pediatrics" })))),
            SECOND_FACTOR_SET: async ({ event }) => {
              // Set up as the portal does: an app's secret, then its current code, in a session just proved.
              const fresh = (): Caller => ({ ...me(), session: { ...me().session, lastProofAt: world.clock.now() } });
              await send(event as OnboardingEvent, async () => {
                const started = await ob.exitAs(fresh(), startAuthenticatorApp);
                if (!Exit.isSuccess(started)) return started;
                return ob.exitAs(fresh(), confirmAuthenticatorApp({ code: testAppCode(started.value.secret, world.clock.now()) }));
              });
            },
            DISCLAIMER_ACCEPTED: async ({ event }) => void (await send(event as OnboardingEvent, () => ob.exitAs(me(), acceptDisclaimer({ accepted: true })))),
            QUIZ_PASSED: async ({ event }) => {
              const { mode } = event as Extract<OnboardingEvent, { type: "QUIZ_PASSED" }>;
              await send(event as OnboardingEvent, () => ob.exitAs(me(), updateQuiz({ mode, answers: quizAnswers(TEST_QUIZ_KEY, mode, 8) })));
            },
            QUIZ_FAILED: async ({ event }) => {
              const { mode } = event as Extract<OnboardingEvent, { type: "QUIZ_FAILED" }>;
              await send(event as OnboardingEvent, () => ob.exitAs(me(), updateQuiz({ mode, answers: quizAnswers(TEST_QUIZ_KEY, mode, 7) })));
            },
          },
          states: Object.fromEntries(
            ["emailVerification", "babyDetails", "waitingApproval", "closed", "baa", "secondFactor", "disclaimer", "quiz", "done"].map((step) => [
              step,
              (state: { context: OnboardingFacts }) => {
                const user = world.users.get(created.id)!;
                expect(onboardingStep(factsOf(user))).toBe(step);
                expect(factsOf(user)).toEqual(state.context);
              },
            ]),
          ),
        });
        // Side effects of the path: an approval is told by e-mail and in the bell.
        const approvedMails = world.mailsTo(created.email).filter((m) => m.subject.includes("approved")).length;
        const approvedNotes = [...ob.notifications.values()].filter((n) => n.userId === created.id && n.kind === "account_approved").length;
        expect(approvedNotes).toBe(approvedMails);
      }
    }, 300_000);
  }
});
