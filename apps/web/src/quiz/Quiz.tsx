import { useMachine } from "@xstate/react";
import { useEffect, useRef, useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { messageOf } from "../api/crown.ts";
import { submitQuiz } from "../api/onboarding.ts";
import { uiMessage } from "../i18n/i18n.ts";
import { updateSession, useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { type QuizMode, quizPassed } from "@crown/core/onboarding/model";
import { drawQuestions, QUIZ_FEEDBACK_TEXT, type QuizManifest, quizMachine, type QuizQuestion } from "@crown/core/onboarding/quiz-machine";

export type QuizKind = "quiz" | "optional-quiz" | "no-cap-quiz";

const retryPath: Record<QuizKind, string> = {
  quiz: "/quiz-instructions",
  "optional-quiz": "/optional-quiz-instructions",
  "no-cap-quiz": "/nocap-instructions/quiz",
};

/** The manifest is not there: the page says so in its language. */
class QuizUnavailable extends Error {}

let manifestPromise: Promise<QuizManifest> | null = null;
const loadManifest = () => {
  manifestPromise ??= fetch("/quiz/manifest.json").then((r) => {
    if (!r.ok) throw new QuizUnavailable();
    return r.json() as Promise<QuizManifest>;
  });
  manifestPromise.catch(() => (manifestPromise = null));
  return manifestPromise;
};

function QuizRun({ kind, questions }: { kind: QuizKind; questions: ReadonlyArray<QuizQuestion> }) {
  const { t } = useTranslation("quiz");
  const session = useSession();
  const [state, send] = useMachine(quizMachine, { input: { questions } });
  const [saveError, setSaveError] = useState<string | null>(null);
  const recorded = useRef(false);
  const { index, score, answers, feedback: verdict } = state.context;
  const total = questions.length;
  const q = questions[index]!;
  const done = state.matches("result");
  const passed = quizPassed(score, total);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!done || recorded.current) return;
    recorded.current = true;
    const mode: QuizMode = kind === "no-cap-quiz" ? "nocap" : "cap";
    submitQuiz({ identifier: session?.userIdentifier, mode, answers })
      .then(({ results }) => {
        // The server's grade decides: only a cap pass clears the quiz due.
        if (results.passed) updateSession({ isQuizTime: results.is_quiz_time, step: results.step });
      })
      .catch((e) => {
        if (passed) setSaveError(messageOf(e));
      });
  }, [done]);

  useEffect(() => {
    headingRef.current?.focus();
  }, [index, done]);

  if (done) {
    return passed ? (
      <section className="card quiz-result" aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1} ref={headingRef}>
          {t("result.passed")}
        </h1>
        <p className="lead">{t("result.score", { score, total })}</p>
        {saveError ? <FormMessage tone="error">{saveError}</FormMessage> : null}
        <Link className="btn btn-primary" to="/dashboard">
          {t("result.ok")}
        </Link>
      </section>
    ) : (
      <section className="card quiz-result" aria-labelledby="page-title">
        <h1 id="page-title" tabIndex={-1} ref={headingRef}>
          {t("result.failed")}
        </h1>
        <p className="lead">{t("result.score", { score, total })}</p>
        <a className="btn btn-primary" href={retryPath[kind]}>
          {t("result.retry")}
        </a>
      </section>
    );
  }

  const feedback = state.matches("feedback") && verdict;
  return (
    <section className="card quiz" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1} ref={headingRef} className="quiz-counter">
        {t("question.counter", { number: index + 1, total })}
      </h1>
      <p className="muted">{t("question.prompt")}</p>
      <img className="quiz-image" src={q.image} alt={t("question.photo", { number: index + 1, total })} width={480} height={480} />
      {feedback ? (
        <div className={`quiz-feedback ${verdict === "correct" ? "ok" : "wrong"}`} role="status">
          {/* The verdict and the photo's reason are core's words (its catalogue), shared with the server. */}
          <p className="quiz-verdict">{uiMessage(QUIZ_FEEDBACK_TEXT[verdict])}</p>
          <p>{uiMessage(q.reason)}</p>
          <Button className="btn btn-secondary" onPress={() => send({ type: "NEXT" })}>
            {index + 1 < total ? t("question.next") : t("question.seeScore")}
          </Button>
        </div>
      ) : (
        <div className="quiz-answers">
          <Button className="btn btn-good" onPress={() => send({ type: "ANSWER", good: true })}>
            {t("question.good")}
          </Button>
          <Button className="btn btn-bad" onPress={() => send({ type: "ANSWER", good: false })}>
            {t("question.bad")}
          </Button>
        </div>
      )}
    </section>
  );
}

/** /quiz, /optional-quiz and /no-cap-quiz: 10 shuffled questions from the matching pool. */
export default function Quiz({ kind }: { kind: QuizKind }) {
  const { t } = useTranslation("quiz");
  const [questions, setQuestions] = useState<QuizQuestion[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    loadManifest()
      .then((m) => setQuestions(drawQuestions(m[kind === "no-cap-quiz" ? "nocap" : "cap"] ?? [])))
      .catch((e: Error) => setError(e instanceof QuizUnavailable ? "" : e.message));
  }, [kind]);
  if (error !== null) return <FormMessage tone="error">{error || t("load.failed")}</FormMessage>;
  if (!questions) return <PageSpinner />;
  if (questions.length === 0) return <FormMessage tone="error">{t("load.failed")}</FormMessage>;
  return <QuizRun key={kind} kind={kind} questions={questions} />;
}
