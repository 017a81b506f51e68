import { QUIZ_PASS_MARK } from "@crown/core";
import { assign, setup } from "xstate";

/** One question: an image of the pool, whether it is good, and the reason (bad) or the generic good-image text. */
export interface QuizQuestion {
  readonly image: string;
  readonly good: boolean;
  readonly reason: string;
}

export type QuizPool = "cap" | "nocap";
export type QuizManifest = Readonly<Record<QuizPool, ReadonlyArray<QuizQuestion>>>;

export const QUIZ_LENGTH = 10;
export const FEEDBACK_MS = 5000;

/** Pass mark: 8 of 10 (docs/adr/0011-quiz-pass-mark.md), the same rule the server applies. */
export const passes = (score: number, total: number) => score * QUIZ_PASS_MARK.total >= QUIZ_PASS_MARK.score * total;

/** `count` questions drawn without repetition, in random order (Fisher-Yates). */
export const drawQuestions = (pool: ReadonlyArray<QuizQuestion>, count = QUIZ_LENGTH, random: () => number = Math.random): QuizQuestion[] => {
  const copy = [...pool];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, Math.min(count, copy.length));
};

export type Verdict = "correct" | "saidGoodOnBad" | "saidBadOnGood";

export const FEEDBACK_TEXT: Record<Verdict, string> = {
  correct: "Correct!",
  saidGoodOnBad: "Not quite: this image is not good enough for a measurement.",
  saidBadOnGood: "Not quite: this image is good enough for a measurement.",
};

/** What the server grades: each photo shown and the answer given (POST /user/update-quiz). */
export interface QuizAnswer {
  readonly image: string;
  readonly answer: "GOOD" | "BAD";
}

interface Ctx {
  readonly questions: ReadonlyArray<QuizQuestion>;
  readonly index: number;
  /** The score shown while taking the quiz; the server's grade decides what is recorded. */
  readonly score: number;
  readonly answers: ReadonlyArray<QuizAnswer>;
  readonly verdict: Verdict | null;
}

type Ev = { type: "ANSWER"; good: boolean } | { type: "NEXT" };

/** Question → feedback (5 s, or Next) → next question … → result. */
export const quizMachine = setup({
  types: {} as { context: Ctx; events: Ev; input: { questions: ReadonlyArray<QuizQuestion> } },
  delays: { feedback: FEEDBACK_MS },
  guards: { more: ({ context }) => context.index + 1 < context.questions.length },
  actions: {
    judge: assign(({ context, event }) => {
      if (event.type !== "ANSWER") return {};
      const q = context.questions[context.index]!;
      const verdict: Verdict = event.good === q.good ? "correct" : q.good ? "saidBadOnGood" : "saidGoodOnBad";
      return {
        verdict,
        score: context.score + (verdict === "correct" ? 1 : 0),
        answers: [...context.answers, { image: q.image, answer: event.good ? "GOOD" : "BAD" } as const],
      };
    }),
    advance: assign(({ context }) => ({ index: context.index + 1, verdict: null })),
  },
}).createMachine({
  id: "quiz",
  context: ({ input }) => ({ questions: input.questions, index: 0, score: 0, answers: [], verdict: null }),
  initial: "question",
  states: {
    question: { on: { ANSWER: { target: "feedback", actions: "judge" } } },
    feedback: {
      after: { feedback: [{ guard: "more", target: "question", actions: "advance" }, { target: "result" }] },
      on: { NEXT: [{ guard: "more", target: "question", actions: "advance" }, { target: "result" }] },
    },
    result: { type: "final" },
  },
});
