import { fc, test as prop } from "@fast-check/vitest";
import { describe, expect, test, vi } from "vitest";
import { createActor } from "xstate";
import { quizPassed } from "./model.ts";
import { QUIZ_LENGTH } from "./quiz.ts";
import { drawQuestions, QUIZ_FEEDBACK_MS, quizMachine, type QuizQuestion } from "./quiz-machine.ts";

const pool: QuizQuestion[] = Array.from({ length: 49 }, (_, i) => ({ image: `/quiz/cap/${i}.jpg`, good: i % 2 === 0, reason: i % 2 ? "Image is blurry" : "Good image" }));

describe("the quiz machine", () => {
  test("draws 10 distinct questions from the pool", () => {
    const q = drawQuestions(pool);
    expect(q).toHaveLength(QUIZ_LENGTH);
    expect(new Set(q.map((x) => x.image)).size).toBe(QUIZ_LENGTH);
  });

  test("pass mark is 8 of 10", () => {
    expect(quizPassed(8, 10)).toBe(true);
    expect(quizPassed(7, 10)).toBe(false);
    expect(quizPassed(10, 10)).toBe(true);
  });

  test("feedback names the kind of mistake, then the next question comes after 5 seconds", () => {
    vi.useFakeTimers();
    const questions = drawQuestions(pool);
    const actor = createActor(quizMachine, { input: { questions } }).start();
    actor.send({ type: "ANSWER", good: !questions[0]!.good });
    expect(actor.getSnapshot().value).toBe("feedback");
    expect(actor.getSnapshot().context.feedback).toBe(questions[0]!.good ? "saidBadOnGood" : "saidGoodOnBad");
    vi.advanceTimersByTime(QUIZ_FEEDBACK_MS);
    expect(actor.getSnapshot().value).toBe("question");
    expect(actor.getSnapshot().context.index).toBe(1);
    for (let i = 1; i < 10; i++) {
      actor.send({ type: "ANSWER", good: questions[i]!.good });
      actor.send({ type: "NEXT" });
    }
    expect(actor.getSnapshot().status).toBe("done");
    expect(actor.getSnapshot().context.score).toBe(9);
    // What the server grades: each photo shown, once, with the answer given.
    expect(actor.getSnapshot().context.answers).toEqual(
      questions.map((q, i) => ({ image: q.image, answer: (i === 0 ? !q.good : q.good) ? "GOOD" : "BAD" })),
    );
    vi.useRealTimers();
  });

  prop.prop([fc.array(fc.boolean(), { minLength: QUIZ_LENGTH, maxLength: QUIZ_LENGTH })])("the score counts the right answers, one answer per photo", (rights) => {
    const questions = drawQuestions(pool);
    const actor = createActor(quizMachine, { input: { questions } }).start();
    rights.forEach((right, i) => {
      actor.send({ type: "ANSWER", good: right === questions[i]!.good });
      actor.send({ type: "NEXT" });
    });
    const { score, answers } = actor.getSnapshot().context;
    expect(score).toBe(rights.filter(Boolean).length);
    expect(new Set(answers.map((a) => a.image)).size).toBe(QUIZ_LENGTH);
    expect(actor.getSnapshot().status).toBe("done");
  });
});
