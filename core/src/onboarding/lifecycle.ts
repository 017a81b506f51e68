import { assign, initialTransition, setup, transition } from "xstate";
import type { User } from "../accounts/model.ts";
import { type AccountEvent, nextStatus, type UserStatus, type UserType } from "../accounts/lifecycle.ts";
import type { QuizMode } from "./model.ts";
import { secondFactorRequired } from "../accounts/second-factor-policy.ts";
import { type OnboardingStep, takesQuiz } from "./steps.ts";

export * from "./steps.ts";

/**
 * The onboarding lifecycle of one account: baby details, approval, the BAA (physicians), the
 * disclaimer, and the quiz. The stored facts (status and three timestamps) are the whole state:
 * the machine starts in `routing`, which moves at once to the step those facts call for, so the
 * server never stores a state value of its own. Each event records one fact and routes again.
 */

export interface OnboardingFacts {
  readonly type: UserType;
  readonly status: UserStatus;
  readonly disclaimerAccepted: boolean;
  readonly baaSigned: boolean;
  readonly quizPassed: boolean;
  /** The account has a second factor (an authenticator app or a passkey; issue 44). */
  readonly secondFactorSet: boolean;
}

/** The account machine's events that onboarding waits on; their status is the account machine's answer. */
export type AccountStepEvent = Extract<AccountEvent, { type: "FIRST_BABY_REGISTERED" | "APPROVED" | "REJECTED" }>;

export type OnboardingEvent =
  | AccountStepEvent
  | { type: "BAA_SIGNED" }
  | { type: "SECOND_FACTOR_SET" }
  | { type: "DISCLAIMER_ACCEPTED" }
  | { type: "QUIZ_PASSED"; mode: QuizMode }
  | { type: "QUIZ_FAILED"; mode: QuizMode };

/**
 * The status the account machine (accounts/lifecycle.ts) gives for an account event; onboarding
 * never decides a status itself. Every onboarding step past `emailVerification` is of a verified account.
 */
const accountAnswer = (facts: OnboardingFacts, event: OnboardingEvent): UserStatus | null =>
  event.type === "FIRST_BABY_REGISTERED" || event.type === "APPROVED" || event.type === "REJECTED"
    ? nextStatus(facts.status, { type: facts.type, emailVerified: true }, event)
    : null;

/** A pass of the cap quiz is recorded; a pass of the no-cap quiz is taken but leaves the quiz due. */
const quizPassedTransitions = [
  { guard: "canPassCapQuiz", target: "routing", actions: "recordQuiz" },
  { guard: "canTakeQuiz", target: "routing" },
] as const;

export const onboardingMachine = setup({
  types: {} as { context: OnboardingFacts; events: OnboardingEvent; input: OnboardingFacts },
  guards: {
    unverified: ({ context }) => context.status === "EmailVerificationRequired",
    blocked: ({ context }) => context.status === "Blocked",
    needsBabyDetails: ({ context }) => context.status === "AdditionalInformationRequired",
    waiting: ({ context }) => context.status === "WaitingApproval",
    needsBaa: ({ context }) => context.type === "physician" && !context.baaSigned,
    // After the BAA, before anything else: no patient is seen without two-step sign-in (issue 44).
    needsSecondFactor: ({ context }) => secondFactorRequired(context.type) && !context.secondFactorSet,
    needsDisclaimer: ({ context }) => !context.disclaimerAccepted,
    quizDue: ({ context }) => takesQuiz(context.type) && !context.quizPassed,
    canTakeQuiz: ({ context }) => takesQuiz(context.type),
    // Only the cap quiz clears the quiz due (capture spec: "isQuizTime set false in the cap quiz").
    canPassCapQuiz: ({ context, event }) => takesQuiz(context.type) && event.type === "QUIZ_PASSED" && event.mode === "cap",
    accountAllows: ({ context, event }) => accountAnswer(context, event) !== null,
  },
  actions: {
    followAccount: assign({ status: ({ context, event }) => accountAnswer(context, event) ?? context.status }),
    recordBaa: assign({ baaSigned: true }),
    recordSecondFactor: assign({ secondFactorSet: true }),
    recordDisclaimer: assign({ disclaimerAccepted: true }),
    recordQuiz: assign({ quizPassed: true }),
  },
}).createMachine({
  id: "onboarding",
  context: ({ input }) => input,
  initial: "routing",
  states: {
    routing: {
      always: [
        { guard: "unverified", target: "emailVerification" },
        { guard: "blocked", target: "closed" },
        { guard: "needsBabyDetails", target: "babyDetails" },
        { guard: "waiting", target: "waitingApproval" },
        { guard: "needsBaa", target: "baa" },
        { guard: "needsSecondFactor", target: "secondFactor" },
        { guard: "needsDisclaimer", target: "disclaimer" },
        { guard: "quizDue", target: "quiz" },
        { target: "done" },
      ],
    },
    // The accounts machine owns verification; nothing here happens before it.
    emailVerification: {},
    // The account's status moves by the account machine; onboarding reads where it landed.
    babyDetails: {
      on: { FIRST_BABY_REGISTERED: { guard: "accountAllows", target: "routing", actions: "followAccount" } },
    },
    waitingApproval: {
      on: {
        APPROVED: { guard: "accountAllows", target: "routing", actions: "followAccount" },
        REJECTED: { guard: "accountAllows", target: "routing", actions: "followAccount" },
      },
    },
    closed: { type: "final" },
    baa: {
      on: {
        BAA_SIGNED: { target: "routing", actions: "recordBaa" },
        // A second factor may be set up before the BAA is signed; the BAA is still due first.
        SECOND_FACTOR_SET: { target: "routing", actions: "recordSecondFactor" },
        // A client may show the disclaimer before the BAA; both are recorded, the BAA is still due.
        DISCLAIMER_ACCEPTED: { target: "routing", actions: "recordDisclaimer" },
        QUIZ_PASSED: quizPassedTransitions,
        QUIZ_FAILED: { guard: "canTakeQuiz", target: "routing" },
      },
    },
    // Set up from the portal's two-step page; nothing else happens on the way.
    secondFactor: {
      on: { SECOND_FACTOR_SET: { target: "routing", actions: "recordSecondFactor" } },
    },
    disclaimer: {
      on: {
        DISCLAIMER_ACCEPTED: { target: "routing", actions: "recordDisclaimer" },
        QUIZ_PASSED: quizPassedTransitions,
        QUIZ_FAILED: { guard: "canTakeQuiz", target: "routing" },
      },
    },
    quiz: {
      on: {
        QUIZ_PASSED: quizPassedTransitions,
        QUIZ_FAILED: { guard: "canTakeQuiz", target: "routing" },
      },
    },
    // The optional quiz can be taken again at any time; a pass or fail changes nothing due.
    done: {
      on: {
        QUIZ_PASSED: quizPassedTransitions,
        QUIZ_FAILED: { guard: "canTakeQuiz", target: "routing" },
      },
    },
  },
});

export const factsOf = (user: User): OnboardingFacts => ({
  type: user.type,
  status: user.status,
  disclaimerAccepted: user.disclaimerAcceptedAt !== null,
  baaSigned: user.baaSignedAt !== null,
  quizPassed: user.quizPassedAt !== null,
  secondFactorSet: user.secondFactorAt !== null,
});

const snapshotOf = (facts: OnboardingFacts) => initialTransition(onboardingMachine, facts)[0];

/** The step the stored facts call for. */
export const onboardingStep = (facts: OnboardingFacts): OnboardingStep => snapshotOf(facts).value as OnboardingStep;

/** Verified and not closed: the account may keep what it told during onboarding (its babies) up to date. */
export const onboardingOpen = (facts: OnboardingFacts): boolean => {
  const step = onboardingStep(facts);
  return step !== "emailVerification" && step !== "closed";
};

/** May the account take this onboarding event at its current step? */
export const onboardingCan = (facts: OnboardingFacts, event: OnboardingEvent): boolean => snapshotOf(facts).can(event);

/** The facts after an event, or null when the event is not allowed at the current step. */
export const applyOnboardingEvent = (facts: OnboardingFacts, event: OnboardingEvent): { step: OnboardingStep; facts: OnboardingFacts } | null => {
  const snapshot = snapshotOf(facts);
  if (!snapshot.can(event)) return null;
  const [next] = transition(onboardingMachine, snapshot, event);
  return { step: next.value as OnboardingStep, facts: next.context };
};

/**
 * The flags the clients route on. `first_time_login` stays true until the first-login steps are
 * done: the disclaimer for everyone, and the BAA as well for a physician.
 */
export const onboardingFlags = (facts: OnboardingFacts) => ({
  step: onboardingStep(facts),
  first_time_login: !facts.disclaimerAccepted || (facts.type === "physician" && !facts.baaSigned),
  is_quiz_time: takesQuiz(facts.type) && !facts.quizPassed,
  disclaimer_accepted: facts.disclaimerAccepted,
  baa_signed: facts.baaSigned,
});
