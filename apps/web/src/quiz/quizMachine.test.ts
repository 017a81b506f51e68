import { describe, expect, test, vi } from "vitest";
import { createActor } from "xstate";
import { checkSelection, UPLOAD_RULE_MESSAGES } from "../capture/rules.ts";
import { drawQuestions, FEEDBACK_MS, passes, quizMachine, type QuizQuestion } from "./quizMachine.ts";

const pool: QuizQuestion[] = Array.from({ length: 49 }, (_, i) => ({ image: `/quiz/cap/${i}.jpg`, good: i % 2 === 0, reason: i % 2 ? "Image is blurry" : "Good image" }));

describe("quiz", () => {
  test("draws 10 distinct questions from the pool", () => {
    const q = drawQuestions(pool);
    expect(q).toHaveLength(10);
    expect(new Set(q.map((x) => x.image)).size).toBe(10);
  });

  test("pass mark is 8 of 10", () => {
    expect(passes(8, 10)).toBe(true);
    expect(passes(7, 10)).toBe(false);
    expect(passes(10, 10)).toBe(true);
  });

  test("feedback names the kind of mistake, then the next question comes after 5 seconds", () => {
    vi.useFakeTimers();
    const questions = drawQuestions(pool);
    const actor = createActor(quizMachine, { input: { questions } }).start();
    actor.send({ type: "ANSWER", good: !questions[0]!.good });
    expect(actor.getSnapshot().value).toBe("feedback");
    expect(actor.getSnapshot().context.verdict).toBe(questions[0]!.good ? "saidBadOnGood" : "saidGoodOnBad");
    vi.advanceTimersByTime(FEEDBACK_MS);
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
});

describe("upload rules", () => {
  const file = (name: string, size = 1000) => ({ name, size });
  test("the spec's three messages, before anything is sent", () => {
    expect(checkSelection(Array.from({ length: 21 }, (_, i) => file(`${i}.jpg`)))).toBe(UPLOAD_RULE_MESSAGES.tooMany);
    expect(checkSelection([file("a.gif")])).toBe(UPLOAD_RULE_MESSAGES.format);
    expect(checkSelection([file("a.mp4", 100 * 1024 * 1024 + 1)])).toBe(UPLOAD_RULE_MESSAGES.tooLarge);
    expect(checkSelection([file("a.JPG"), file("b.jpeg"), file("c.png"), file("d.MOV"), file("e.mp4")])).toBeNull();
  });
});
