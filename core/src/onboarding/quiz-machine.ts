import { assign, setup } from "xstate";
import type { QuizMode } from "./model.ts";
import { QUIZ_LENGTH, type QuizAnswerValue } from "./quiz.ts";
import type { QuizFeedback } from "./quiz-texts.ts";

/**
 * The photo quiz as the person takes it: question → feedback (5 s, or Next) → next question … →
 * result. The score it shows uses the one pass rule (`quizPassed`, ADR 0011) and the one quiz length
 * (`QUIZ_LENGTH`); the server grades the answers again with the same rule (quiz.ts) and records it.
 */

/** One question: an image of the pool, whether it is good, and the reason (bad) or the generic good-image text. */
export interface QuizQuestion {
  readonly image: string;
  readonly good: boolean;
  readonly reason: string;
}

/** The portal's quiz manifest: the questions of each pool. */
export type QuizManifest = Readonly<Record<QuizMode, ReadonlyArray<QuizQuestion>>>;

export const QUIZ_FEEDBACK_MS = 5000;

/** `count` questions drawn without repetition, in random order (Fisher-Yates). */
export const drawQuestions = (pool: ReadonlyArray<QuizQuestion>, count = QUIZ_LENGTH, random: () => number = Math.random): QuizQuestion[] => {
  const copy = [...pool];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, Math.min(count, copy.length));
};

export { QUIZ_FEEDBACK_TEXT, type QuizFeedback } from "./quiz-texts.ts";

/** What the server grades: each photo shown and the answer given (POST /user/update-quiz). */
export interface QuizAnswer {
  readonly image: string;
  readonly answer: QuizAnswerValue;
}

export interface QuizRunContext {
  readonly questions: ReadonlyArray<QuizQuestion>;
  readonly index: number;
  /** The score shown while taking the quiz; the server's grade decides what is recorded. */
  readonly score: number;
  readonly answers: ReadonlyArray<QuizAnswer>;
  readonly feedback: QuizFeedback | null;
}

export type QuizRunEvent = { type: "ANSWER"; good: boolean } | { type: "NEXT" };

export const quizMachine = setup({
  types: {} as { context: QuizRunContext; events: QuizRunEvent; input: { questions: ReadonlyArray<QuizQuestion> } },
  delays: { feedback: QUIZ_FEEDBACK_MS },
  guards: { more: ({ context }) => context.index + 1 < context.questions.length },
  actions: {
    judge: assign(({ context, event }) => {
      if (event.type !== "ANSWER") return {};
      const q = context.questions[context.index]!;
      const feedback: QuizFeedback = event.good === q.good ? "correct" : q.good ? "saidBadOnGood" : "saidGoodOnBad";
      return {
        feedback,
        score: context.score + (feedback === "correct" ? 1 : 0),
        answers: [...context.answers, { image: q.image, answer: event.good ? "GOOD" : "BAD" } as const],
      };
    }),
    advance: assign(({ context }) => ({ index: context.index + 1, feedback: null })),
  },
}).createMachine({
  id: "quiz",
  context: ({ input }) => ({ questions: input.questions, index: 0, score: 0, answers: [], feedback: null }),
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
