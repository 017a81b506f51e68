import { useEffect, useRef, useState } from "react";
import { Button, Label, NumberField, Input, Group, ProgressBar, TextArea, TextField, Text } from "react-aria-components";
import { Navigate, useNavigate } from "react-router-dom";
import { getProfile } from "../../api/accounts.ts";
import { ApiError, messageOf } from "../../api/client.ts";
import { registerBaby } from "../../api/onboarding.ts";
import { clearDraft, loadDraft, saveBabyErrors, saveDraft } from "../../forms/babyDraft.ts";
import { GENDERS, PRETERM_WEEKS_MAX, RACES } from "../../forms/onboarding.ts";
import { signOutNow } from "../../session/signOut.ts";
import { updateSession } from "../../session/store.ts";
import { Choice, cap } from "../../ui/choices.tsx";
import { FormMessage } from "../../ui/fields.tsx";

export const APPROVAL_NEEDED_MESSAGE = "Your data is saved. But your account needs approval before proceeding further!";
export const APPROVAL_SIGN_OUT_MS = 5000;
export const REQUEST_RECEIVED_MESSAGE =
  "We have received your request. We will contact you once an administrator has reviewed your child's information.";

const STEPS = ["Gender", "Born early", "Race", "Previous conditions"] as const;
const BABY_FIELDS = ["physician_identifier", "name", "first_name", "last_name", "date_of_birth", "relation", "referral_code", "middle_name"];

export default function ChildDetails() {
  const navigate = useNavigate();
  // Read once: the draft is cleared after a successful submit, while the approval message still shows.
  const [draft] = useState(loadDraft);
  const [step, setStep] = useState(0);
  const [gender, setGender] = useState(draft?.gender ?? "");
  const [weeks, setWeeks] = useState<number>(Number(draft?.nicu_time ?? 0) || 0);
  const [race, setRace] = useState(draft?.ethnicity ?? "");
  const [conditions, setConditions] = useState(draft?.previous_condition ?? "");
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

  const keep = () => saveDraft({ ...draft, gender, nicu_time: weeks, ethnicity: race, previous_condition: conditions });

  const submit = async (skipped?: number) => {
    keep();
    setError(null);
    setPending(true);
    try {
      const { physician_name: _ignored, ...payload } = draft;
      const { results } = await registerBaby({
        ...payload,
        ...(gender ? { gender } : {}),
        nicu_time: weeks,
        ...(race ? { ethnicity: race } : {}),
        ...(conditions.trim() && skipped !== 3 ? { previous_condition: conditions.trim() } : {}),
      });
      const parentStatus = results?.parent_status ?? "Active";
      let babies = undefined;
      try {
        babies = (await getProfile()).results.babies;
      } catch {
        // the list refreshes on the next sign-in
      }
      clearDraft();
      if (parentStatus === "WaitingApproval") {
        updateSession({ status: "WaitingApproval" });
        setApproval(true);
        return;
      }
      updateSession({
        status: "Active",
        isFirstLogin: true,
        disclaimerAccepted: false,
        ...(babies ? { babies, selectedBabyId: babies[babies.length - 1]?.identifier ?? null } : {}),
      });
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
    if (step < 3) setStep(step + 1);
    else void submit();
  };
  /** Skip leaves the question unanswered and moves on (the last step's Skip submits). */
  const skip = () => {
    if (step === 0) setGender("");
    if (step === 1) setWeeks(0);
    if (step === 2) setRace("");
    if (step === 3) setConditions("");
    if (step < 3) setStep(step + 1);
    else void submit(3);
  };
  const back = () => {
    keep();
    if (step === 0) navigate("/baby-details");
    else setStep(step - 1);
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
                Step {step + 1} of 4: {STEPS[step]}
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
          {STEPS[step]}
        </h2>
        {step === 0 ? (
          <Choice name="gender" label="What is your baby's sex?" options={GENDERS.map((g) => ({ value: g, label: cap(g) }))} value={gender} onChange={setGender} />
        ) : null}
        {step === 1 ? (
          <NumberField className="field number-field" name="nicu_time" value={weeks} onChange={(v) => setWeeks(Number.isNaN(v) ? 0 : v)} minValue={0} maxValue={PRETERM_WEEKS_MAX} step={1}>
            <Label>How many weeks early was your baby born?</Label>
            <Group className="number-group">
              <Button slot="decrement" className="btn btn-secondary step-btn">
                −
              </Button>
              <Input />
              <Button slot="increment" className="btn btn-secondary step-btn">
                +
              </Button>
            </Group>
            <Text slot="description">0 if born at full term (40 weeks); up to {PRETERM_WEEKS_MAX} weeks.</Text>
          </NumberField>
        ) : null}
        {step === 2 ? (
          <Choice name="ethnicity" label="What is your baby's race?" layout="column" options={RACES.map((r) => ({ value: r, label: r }))} value={race} onChange={setRace} />
        ) : null}
        {step === 3 ? (
          <TextField className="field" name="previous_condition" value={conditions} onChange={setConditions}>
            <Label>Has your baby been diagnosed with any condition (for example torticollis or craniosynostosis)?</Label>
            <TextArea rows={4} />
            <Text slot="description">Leave empty if none.</Text>
          </TextField>
        ) : null}
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
