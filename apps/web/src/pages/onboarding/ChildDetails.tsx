import { useEffect, useRef, useState } from "react";
import { Button, ProgressBar } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router-dom";
import { getProfile } from "../../api/account-pages.ts";
import { ApiError, messageOf } from "../../api/crown.ts";
import { registerBaby } from "../../api/onboarding.ts";
import { clearDraft, loadDraft, saveBabyErrors, saveDraft } from "../../forms/babyDraft.ts";
import { signOutNow } from "../../session/signOut.ts";
import { updateSession } from "../../session/store.ts";
import { type ChildAnswers, type ChildQuestionIndex, answersOf, answersPayload, CHILD_QUESTIONS, ChildQuestion, noAnswers, useQuestionName } from "../../forms/ChildFields.tsx";
import { FormMessage } from "../../ui/fields.tsx";
import { waitsForApproval } from "@crown/core/onboarding/steps";

export const APPROVAL_SIGN_OUT_MS = 5000;

const BABY_FIELDS = ["physician_identifier", "name", "first_name", "last_name", "date_of_birth", "relation", "referral_code", "middle_name"];

export default function ChildDetails() {
  const { t } = useTranslation("onboarding");
  const questionName = useQuestionName();
  const navigate = useNavigate();
  // Read once: the draft is cleared after a successful submit, while the approval message still shows.
  const [draft] = useState(loadDraft);
  const [step, setStep] = useState<ChildQuestionIndex>(0);
  const [answers, setAnswers] = useState<ChildAnswers>(draft ? answersOf(draft) : noAnswers);
  const set = <K extends keyof ChildAnswers>(k: K, v: ChildAnswers[K]) => setAnswers((a) => ({ ...a, [k]: v }));
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [approval, setApproval] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    heading.current?.focus();
  }, [step]);

  useEffect(() => {
    if (!approval) return;
    const timer = window.setTimeout(() => void signOutNow({ text: t("child.requestReceived"), tone: "info" }), APPROVAL_SIGN_OUT_MS);
    return () => window.clearTimeout(timer);
  }, [approval, t]);

  if (!draft) return <Navigate to="/baby-details" replace />;

  const keep = () => saveDraft({ ...draft, ...answers });

  const submit = async (skipped?: number) => {
    keep();
    setError(null);
    setPending(true);
    try {
      const { physician_name: _ignored, ...payload } = draft;
      const { gender: _g, ethnicity: _e, nicu_time: _n, previous_condition: _p, ...baby } = payload;
      const { results } = await registerBaby({ ...baby, ...answersPayload(skipped === 3 ? { ...answers, previous_condition: "" } : answers) });
      let babies = undefined;
      try {
        babies = (await getProfile()).results.babies;
      } catch {
        // the list refreshes on the next sign-in
      }
      clearDraft();
      // The server's answer says where the parent is now: waiting for an administrator, or onwards.
      updateSession({
        status: results.parent_status,
        step: results.step,
        ...(babies ? { babies, selectedBabyId: babies[babies.length - 1]?.identifier ?? null } : {}),
      });
      if (waitsForApproval(results.step)) {
        setApproval(true);
        return;
      }
      navigate("/dashboard", { replace: true });
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.errors).some((f) => BABY_FIELDS.includes(f))) {
        saveBabyErrors(err.fieldErrors);
        navigate("/baby-details");
        return;
      }
      setError(messageOf(err));
    } finally {
      setPending(false);
    }
  };

  const next = () => {
    keep();
    if (step < 3) setStep((step + 1) as ChildQuestionIndex);
    else void submit();
  };
  /** Skip leaves the question unanswered and moves on (the last step's Skip submits). */
  const skip = () => {
    if (step === 0) set("gender", "");
    if (step === 1) set("nicu_time", 0);
    if (step === 2) set("ethnicity", "");
    if (step === 3) set("previous_condition", "");
    if (step < 3) setStep((step + 1) as ChildQuestionIndex);
    else void submit(3);
  };
  const back = () => {
    keep();
    if (step === 0) navigate("/baby-details");
    else setStep((step - 1) as ChildQuestionIndex);
  };

  const percent = (step + 1) * 25;

  if (approval) {
    return (
      <section className="card" aria-labelledby="page-title">
        <h1 id="page-title">{t("child.thanks")}</h1>
        <FormMessage tone="info">{t("child.approvalNeeded")}</FormMessage>
        <p className="muted">{t("child.signingOut")}</p>
      </section>
    );
  }

  return (
    <section className="card card-wide" aria-labelledby="page-title">
      <h1 id="page-title">{t("child.title")}</h1>
      <p className="card-subtitle">{t("child.subtitle", { name: draft.first_name })}</p>
      <ProgressBar value={percent} className="progress" aria-label={t("child.step", { step: step + 1 })}>
        {({ valueText }) => (
          <>
            <div className="progress-label">
              <span>{t("child.stepOf", { step: step + 1, question: questionName(CHILD_QUESTIONS[step]) })}</span>
              <span>{valueText}</span>
            </div>
            <div className="progress-track">
              <div className="progress-fill" style={{ width: `${percent}%` }} />
            </div>
          </>
        )}
      </ProgressBar>
      <div className="wizard-step">
        <h2 ref={heading} tabIndex={-1} className="wizard-title">
          {questionName(CHILD_QUESTIONS[step])}
        </h2>
        <ChildQuestion question={step} values={answers} set={set} />
      </div>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      <div className="form-actions wizard-actions">
        <Button className="btn btn-secondary" onPress={back}>
          {t("child.back")}
        </Button>
        <span className="spacer" />
        <Button className="btn btn-ghost" onPress={skip} isDisabled={pending}>
          {t("child.skip")}
        </Button>
        <Button className="btn btn-primary" onPress={next} isDisabled={pending}>
          {t("child.continue")}
        </Button>
      </div>
    </section>
  );
}
