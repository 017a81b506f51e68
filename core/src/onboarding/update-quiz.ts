import { Effect, Either } from "effect";
import { CurrentUser, Users } from "../accounts/model.ts";
import { ACCESS_MESSAGES } from "../accounts/access.ts";
import { Forbidden, NotFound } from "../shared/errors.ts";
import { audit, now, Random, transaction } from "../shared/ports.ts";
import { onboardingFlags } from "./lifecycle.ts";
import { MESSAGES } from "./messages.ts";
import { type QuizMode, QuizAttempts } from "./model.ts";
import { blanksAsAbsent, freshCaller, step } from "./policy.ts";
import { gradeQuiz, QuizAnswerKey } from "./quiz.ts";
import { UpdateQuizRequest, validateForm } from "./schemas.ts";
import { awaitsApproval } from "../accounts/lifecycle.ts";

/**
 * Grades and records a quiz: the server scores the client's answers against the pool's key, so a
 * score is never taken on trust. Every attempt is stored with its mode and score; a pass of the
 * cap quiz (8 of 10, ADR 0011) clears `is_quiz_time`, a pass of the no-cap quiz does not.
 */
export const updateQuiz = (input: unknown) =>
  Effect.gen(function* () {
    const { user: current } = yield* CurrentUser;
    const request = yield* validateForm(UpdateQuizRequest, blanksAsAbsent(input));
    if (request.identifier && request.identifier !== current.id) return yield* NotFound.of("User");
    const mode: QuizMode = request.mode;
    const grade = yield* Either.match(gradeQuiz(yield* QuizAnswerKey, mode, request.answers), { onLeft: Effect.fail, onRight: Effect.succeed });
    const user = yield* freshCaller;
    const next = step(user, { type: grade.passed ? "QUIZ_PASSED" : "QUIZ_FAILED", mode });
    if (next === null) {
      return yield* awaitsApproval(user)
        ? new Forbidden({ message: ACCESS_MESSAGES.waitingApproval, status: user.status })
        : new Forbidden({ message: ACCESS_MESSAGES.notAllowed });
    }
    const at = yield* now;
    const { score, total, passed } = grade;
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* QuizAttempts).insert({ id: (yield* Random).identifier(), userId: user.id, mode, score, total, passed, at });
        if (next.facts.quizPassed && user.quizPassedAt === null) yield* (yield* Users).update(user.id, { quizPassedAt: at });
        yield* audit({ action: passed ? "quiz.passed" : "quiz.failed", actorId: user.id, subjectId: user.id, details: { mode, score, total } });
      }),
    );
    return {
      message: passed ? MESSAGES.quizPassed : MESSAGES.quizFailed,
      results: { passed, mode, score, total, ...onboardingFlags(next.facts) },
    };
  });
