import { fc, test } from "@fast-check/vitest";
import { Either, Exit } from "effect";
import { describe, expect, it } from "vitest";
import { createVerifiedUser } from "../accounts/service.ts";
import type { Caller } from "../accounts/model.ts";
import { makeTestWorld } from "../testing/memory.ts";
import { callerIn } from "../testing/accounts.ts";
import { makeOnboardingWorld, quizAnswers, TEST_QUIZ_KEY } from "../testing/onboarding-memory.ts";
import { answerKeyFrom, gradeQuiz, QUIZ_LENGTH, QUIZ_MESSAGES } from "./quiz.ts";
import { updateQuiz } from "./service.ts";

const errorsOf = (result: Either.Either<unknown, { errors: Readonly<Record<string, ReadonlyArray<string>>> }>) =>
  Either.isLeft(result) ? result.left.errors : null;

describe("gradeQuiz", () => {
  test.prop([fc.constantFrom("cap" as const, "nocap" as const), fc.integer({ min: 0, max: QUIZ_LENGTH })])(
    "the score is the number of answers that match the key; 8 of 10 passes",
    (mode, right) => {
      const grade = gradeQuiz(TEST_QUIZ_KEY, mode, quizAnswers(TEST_QUIZ_KEY, mode, right));
      expect(grade).toEqual(Either.right({ score: right, total: QUIZ_LENGTH, passed: right >= 8 }));
    },
  );

  it("takes the key's word, not the order or the client's claims: a shuffled quiz scores the same", () => {
    const answers = quizAnswers(TEST_QUIZ_KEY, "cap", 9).reverse();
    expect(Either.getOrThrow(gradeQuiz(TEST_QUIZ_KEY, "cap", answers)).score).toBe(9);
  });

  it("refuses fewer or more answers than the quiz has questions", () => {
    const answers = quizAnswers(TEST_QUIZ_KEY, "cap", 10);
    expect(errorsOf(gradeQuiz(TEST_QUIZ_KEY, "cap", answers.slice(0, 9)))).toEqual({ answers: [QUIZ_MESSAGES.answerCount] });
    const eleven = [...answers, { image: TEST_QUIZ_KEY.cap[10]!.image, answer: "GOOD" as const }];
    expect(errorsOf(gradeQuiz(TEST_QUIZ_KEY, "cap", eleven))).toEqual({ answers: [QUIZ_MESSAGES.answerCount] });
  });

  it("refuses the same photo answered twice (ten answers to one good photo do not pass)", () => {
    const good = TEST_QUIZ_KEY.cap.find((e) => e.good)!;
    const answers = Array.from({ length: QUIZ_LENGTH }, () => ({ image: good.image, answer: "GOOD" as const }));
    expect(errorsOf(gradeQuiz(TEST_QUIZ_KEY, "cap", answers))).toEqual({ answers: [QUIZ_MESSAGES.duplicate] });
  });

  it("refuses a photo of another pool or of no pool", () => {
    const capAnswers = quizAnswers(TEST_QUIZ_KEY, "cap", 10);
    expect(errorsOf(gradeQuiz(TEST_QUIZ_KEY, "nocap", capAnswers))).toEqual({ answers: [QUIZ_MESSAGES.unknownImage] });
    const made_up = [...capAnswers.slice(0, 9), { image: "/quiz/cap/made-up.jpg", answer: "GOOD" as const }];
    expect(errorsOf(gradeQuiz(TEST_QUIZ_KEY, "cap", made_up))).toEqual({ answers: [QUIZ_MESSAGES.unknownImage] });
  });
});

describe("answerKeyFrom", () => {
  it("keeps the image and the verdict of each photo, dropping the portal's texts", () => {
    const pool = (prefix: string) => Array.from({ length: QUIZ_LENGTH }, (_, i) => ({ image: `${prefix}/${i}.jpg`, good: i === 0, reason: "why" }));
    const key = answerKeyFrom({ cap: pool("cap"), nocap: pool("nocap") });
    expect(key.cap[0]).toEqual({ image: "cap/0.jpg", good: true });
    expect(key.nocap).toHaveLength(QUIZ_LENGTH);
  });

  it("refuses a pool too small for one quiz, a photo listed twice, or a malformed file", () => {
    const pool = Array.from({ length: QUIZ_LENGTH }, (_, i) => ({ image: `${i}.jpg`, good: true }));
    expect(() => answerKeyFrom({ cap: pool.slice(1), nocap: pool })).toThrow(/cap quiz pool has 9 photos/);
    expect(() => answerKeyFrom({ cap: pool, nocap: [...pool, pool[0]] })).toThrow(/nocap quiz pool lists a photo twice/);
    expect(() => answerKeyFrom({ cap: pool })).toThrow();
  });
});

describe("updateQuiz (in-memory world)", () => {
  const setup = async (type: "parent" | "physician") => {
    const world = makeTestWorld();
    const ob = makeOnboardingWorld(world);
    const user = await world.run(createVerifiedUser({ email: `${type}@example.com`, password: "Secret#123", type, firstName: "Fay", lastName: "Subject" }));
    world.users.set(user.id, { ...user, status: "Active" });
    const me = (): Caller => callerIn(world, user.id);
    return { world, ob, user, me };
  };

  it("grades on the server: a claimed score is ignored and answers are required", async () => {
    const { ob, me } = await setup("physician");
    const exit = await ob.exitAs(me(), updateQuiz({ mode: "cap", score: 10, total: 10 }));
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain(QUIZ_MESSAGES.answersRequired);
    expect(ob.quizAttempts).toHaveLength(0);
  });

  it("records every attempt with mode and score; only a cap pass clears the quiz due", async () => {
    const { world, ob, user, me } = await setup("physician");
    const nocapPass = await ob.runAs(me(), updateQuiz({ mode: "nocap", answers: quizAnswers(TEST_QUIZ_KEY, "nocap", 10) }));
    expect(nocapPass.results).toMatchObject({ passed: true, mode: "nocap", score: 10, total: 10, is_quiz_time: true });
    expect(world.users.get(user.id)!.quizPassedAt).toBeNull();
    const capFail = await ob.runAs(me(), updateQuiz({ mode: "cap", answers: quizAnswers(TEST_QUIZ_KEY, "cap", 7) }));
    expect(capFail.results).toMatchObject({ passed: false, score: 7, is_quiz_time: true });
    const capPass = await ob.runAs(me(), updateQuiz({ mode: "cap", answers: quizAnswers(TEST_QUIZ_KEY, "cap", 8) }));
    expect(capPass.results).toMatchObject({ passed: true, score: 8, is_quiz_time: false });
    expect(world.users.get(user.id)!.quizPassedAt).not.toBeNull();
    expect(ob.quizAttempts.map((a) => [a.mode, a.score, a.total, a.passed])).toEqual([
      ["nocap", 10, 10, true],
      ["cap", 7, 10, false],
      ["cap", 8, 10, true],
    ]);
  });
});
