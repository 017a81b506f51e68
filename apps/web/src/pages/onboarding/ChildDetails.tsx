import { useEffect, useRef, useState } from "react";
import { Button, ProgressBar } from "react-aria-components";
import { Navigate, useNavigate } from "react-router-dom";
import { getProfile } from "../../api/accounts.ts";
import { ApiError, messageOf } from "../../api/client.ts";
import { registerBaby } from "../../api/onboarding.ts";
import { clearDraft, loadDraft, saveBabyErrors, saveDraft } from "../../forms/babyDraft.ts";
import { signOutNow } from "../../session/signOut.ts";
import { updateSession } from "../../session/store.ts";
import { type ChildAnswers, type ChildQuestionIndex, answersOf, answersPayload, CHILD_QUESTIONS, ChildQuestion, noAnswers } from "../../ui/ChildFields.tsx";
import { FormMessage } from "../../ui/fields.tsx";
import { waitsForApproval } from "@crown/core/onboarding/lifecycle";

export const APPROVAL_NEEDED_MESSAGE = "Your data is saved. But your account needs approval before proceeding further!";
export const APPROVAL_SIGN_OUT_MS = 5000;
export const REQUEST_RECEIVED_MESSAGE =
  "We have received your request. We will contact you once an administrator has reviewed your child's information.";

const BABY_FIELDS = ["physician_identifier", "name", "first_name", "last_name", "date_of_birth", "relation", "referral_code", "middle_name"];

export default function ChildDetails() {
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
    const t = window.setTimeout(() => void signOutNow({ text: REQUEST_RECEIVED_MESSAGE, tone: "info" }), APPROVAL_SIGN_OUT_MS);
    return () => window.clearTimeout(t);
  }, [approval]);

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
        <h1 id="page-title">Thank you</h1>
        <FormMessage tone="info">{APPROVAL_NEEDED_MESSAGE}</FormMessage>
        <p className="muted">You will be signed out in a few seconds.</p>
      </section>
    );
  }

  return (
    <section className="card card-wide" aria-labelledby="page-title">
      <h1 id="page-title">A few more details</h1>
      <p className="card-subtitle">These help the experts read {draft.first_name}'s scans. You may skip any question.</p>
      <ProgressBar value={percent} className="progress" aria-label={`Step ${step + 1} of 4`}>
        {({ valueText }) => (
          <>
            <div className="progress-label">
              <span>
                Step {step + 1} of 4: {CHILD_QUESTIONS[step]}
              </span>
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
          {CHILD_QUESTIONS[step]}
        </h2>
        <ChildQuestion question={step} values={answers} set={set} />
      </div>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      <div className="form-actions wizard-actions">
        <Button className="btn btn-secondary" onPress={back}>
          Back
        </Button>
        <span className="spacer" />
        <Button className="btn btn-ghost" onPress={skip} isDisabled={pending}>
          Skip
        </Button>
        <Button className="btn btn-primary" onPress={next} isDisabled={pending}>
          Continue
        </Button>
      </div>
    </section>
  );
}
