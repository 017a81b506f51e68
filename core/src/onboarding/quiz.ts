import { Context, Either, Schema } from "effect";
import { ValidationFailed } from "../shared/errors.ts";
import { QUIZ_MODES, type QuizMode, quizPassed } from "./model.ts";

/**
 * The photo quiz, graded on the server: the client names the photos it was shown and its GOOD or
 * BAD answer for each; the answer key (the quiz pool) decides what was right. The pool is data the
 * composition root loads (the portal's quiz manifest) and hands over: core reads no file.
 */

/** Questions per quiz (capture spec: 10 questions shuffled from the pool). */
export const QUIZ_LENGTH = 10;

export const QUIZ_ANSWERS = ["GOOD", "BAD"] as const;
export type QuizAnswerValue = (typeof QUIZ_ANSWERS)[number];

/** One photo of a pool: its identifier (the image path the portal shows) and whether it is good. */
export interface QuizKeyEntry {
  readonly image: string;
  readonly good: boolean;
}
export type QuizAnswerKeyData = Readonly<Record<QuizMode, ReadonlyArray<QuizKeyEntry>>>;
export class QuizAnswerKey extends Context.Tag("crown/QuizAnswerKey")<QuizAnswerKey, QuizAnswerKeyData>() {}

/** The pool file's shape (extra fields such as the reason text are the portal's and ignored here). */
const PoolEntry = Schema.Struct({ image: Schema.String.pipe(Schema.minLength(1)), good: Schema.Boolean });
export const QuizPoolFile = Schema.Struct({ cap: Schema.Array(PoolEntry), nocap: Schema.Array(PoolEntry) });

/**
 * Checks a pool before the server uses it as the key: every pool holds at least one quiz of
 * distinct photos, and no photo is listed twice (which would make its answer ambiguous).
 */
export const answerKeyFrom = (input: unknown): QuizAnswerKeyData => {
  const pools = Schema.decodeUnknownSync(QuizPoolFile, { onExcessProperty: "ignore" })(input);
  for (const mode of QUIZ_MODES) {
    const images = pools[mode].map((e) => e.image);
    if (new Set(images).size !== images.length) throw new Error(`The ${mode} quiz pool lists a photo twice.`);
    if (images.length < QUIZ_LENGTH) throw new Error(`The ${mode} quiz pool has ${images.length} photos; a quiz needs ${QUIZ_LENGTH}.`);
  }
  return { cap: pools.cap.map(({ image, good }) => ({ image, good })), nocap: pools.nocap.map(({ image, good }) => ({ image, good })) };
};

export const QUIZ_MESSAGES = {
  answersRequired: "Answers are required",
  answerCount: `Answer each of the ${QUIZ_LENGTH} questions of the quiz`,
  answerValue: `Each answer must be ${QUIZ_ANSWERS.join(" or ")}`,
  duplicate: "Each photo of the quiz can be answered only once",
  unknownImage: "Each answer must name a photo of this quiz",
} as const;

export interface QuizGrade {
  readonly score: number;
  readonly total: number;
  readonly passed: boolean;
}

/**
 * Grades one quiz: exactly `QUIZ_LENGTH` distinct photos of the mode's pool, each answered GOOD or
 * BAD; the score counts the answers that match the key, and the pass mark is ADR 0011's.
 */
export const gradeQuiz = (
  key: QuizAnswerKeyData,
  mode: QuizMode,
  answers: ReadonlyArray<{ readonly image: string; readonly answer: QuizAnswerValue }>,
): Either.Either<QuizGrade, ValidationFailed> => {
  const fail = (message: string) => Either.left(ValidationFailed.field("answers", message));
  if (answers.length !== QUIZ_LENGTH) return fail(QUIZ_MESSAGES.answerCount);
  if (new Set(answers.map((a) => a.image)).size !== answers.length) return fail(QUIZ_MESSAGES.duplicate);
  const pool = new Map(key[mode].map((e) => [e.image, e.good]));
  let score = 0;
  for (const { image, answer } of answers) {
    const good = pool.get(image);
    if (good === undefined) return fail(QUIZ_MESSAGES.unknownImage);
    if ((answer === "GOOD") === good) score++;
  }
  return Either.right({ score, total: QUIZ_LENGTH, passed: quizPassed(score, QUIZ_LENGTH) });
};
