import { CalendarDays, check, PATIENT_MAX_AGE_MONTHS, PatientRequest } from "@crown/core";
import { useState } from "react";
import { Button, Input, Label, TextField } from "react-aria-components";
import { ApiError, kioskApi } from "../api.ts";
import { ErrorLine, handleFailure, type Send, toPatient } from "./shared.tsx";

const localToday = () => CalendarDays.dayOf(new Date(Date.now() - new Date().getTimezoneOffset() * 60_000));
const earliestBirth = () => {
  const d = new Date();
  d.setMonth(d.getMonth() - PATIENT_MAX_AGE_MONTHS);
  return d.toISOString().slice(0, 10);
};

/** A new patient of the practice, checked with core's patient rules before it is sent. */
export function AddPatient({ session, send }: { session: string; send: Send }) {
  const [values, setValues] = useState({ first_name: "", last_name: "", date_of_birth: "", gender: "", email: "" });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const set = (field: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const submit = async () => {
    const body = {
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      name: `${values.first_name.trim()} ${values.last_name.trim()}`.trim(),
      date_of_birth: values.date_of_birth,
      ...(values.gender ? { gender: values.gender } : {}),
      ...(values.email.trim() ? { email: values.email.trim() } : {}),
    };
    const checked = check(PatientRequest(localToday()), body);
    if (checked._tag === "Left") return setErrors(checked.left.errors as Record<string, string[]>);
    setErrors({});
    setPending(true);
    try {
      const patient = await kioskApi.addPatient(session, body);
      send({ type: "PATIENT_CHOSEN", patient: toPatient(patient) });
    } catch (e) {
      if (e instanceof ApiError && e.status === 422) setErrors(e.errors);
      else handleFailure(e, send, setError);
    } finally {
      setPending(false);
    }
  };
  const field = (name: keyof typeof values, label: string, props: Record<string, unknown> = {}) => (
    <TextField validationBehavior="aria" value={values[name]} onChange={set(name)} isInvalid={!!errors[name]} className="field">
      <Label>{label}</Label>
      <Input name={name} {...props} />
      {errors[name] ? <span className="error">{errors[name]!.join(", ")}</span> : null}
    </TextField>
  );
  return (
    <form
      className="add-patient"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {field("first_name", "First name", { autoComplete: "off" })}
      {field("last_name", "Last name", { autoComplete: "off" })}
      {field("date_of_birth", "Date of birth", { type: "date", min: earliestBirth(), max: new Date().toISOString().slice(0, 10) })}
      <label className="field">
        <span>Gender</span>
        <select name="gender" value={values.gender} onChange={(e) => set("gender")(e.target.value)}>
          <option value="">Not given</option>
          <option value="male">Male</option>
          <option value="female">Female</option>
          <option value="other">Other</option>
        </select>
        {errors.gender ? <span className="error">{errors.gender.join(", ")}</span> : null}
      </label>
      {field("email", "Caregiver e-mail (optional)", { type: "email", autoComplete: "off" })}
      <ErrorLine message={error} />
      <Button type="submit" className="big" isDisabled={pending}>
        Add patient
      </Button>
    </form>
  );
}
