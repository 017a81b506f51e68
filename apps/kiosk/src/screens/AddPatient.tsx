import { CalendarDays, check, PATIENT_MAX_AGE_MONTHS, PatientRequest } from "@crown/core";
import { useState } from "react";
import { Button, Input, Label, TextField } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { ApiError, kioskApi } from "../crown.ts";
import { coreText } from "../i18n/i18n.ts";
import { ErrorLine, handleFailure, type Send, toPatient } from "./shared.tsx";

const localToday = () => CalendarDays.dayOf(new Date(Date.now() - new Date().getTimezoneOffset() * 60_000));
const earliestBirth = () => {
  const d = new Date();
  d.setMonth(d.getMonth() - PATIENT_MAX_AGE_MONTHS);
  return d.toISOString().slice(0, 10);
};

/** A new patient of the practice, checked with core's patient rules before it is sent. */
export function AddPatient({ session, send }: { session: string; send: Send }) {
  const { t } = useTranslation("patients");
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
    // Core's checks speak English; shown in the session's language (the server's answers already are).
    if (checked._tag === "Left")
      return setErrors(Object.fromEntries(Object.entries(checked.left.errors as Record<string, string[]>).map(([field, messages]) => [field, messages.map(coreText)])));
    setErrors({});
    setPending(true);
    try {
      // `body` has just passed core's PatientRequest (`checked` above): it is the route's body.
      const patient = await kioskApi.addPatient(session, body as Parameters<typeof kioskApi.addPatient>[1]);
      send({ type: "PATIENT_CHOSEN", patient: toPatient(patient) });
    } catch (e) {
      if (e instanceof ApiError && e.httpStatus === 422) setErrors(Object.fromEntries(Object.entries(e.errors).map(([field, list]) => [field, [...list]])));
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
      {field("first_name", t("add.firstName"), { autoComplete: "off" })}
      {field("last_name", t("add.lastName"), { autoComplete: "off" })}
      {field("date_of_birth", t("add.dateOfBirth"), { type: "date", min: earliestBirth(), max: new Date().toISOString().slice(0, 10) })}
      <label className="field">
        <span>{t("add.gender")}</span>
        <select name="gender" value={values.gender} onChange={(e) => set("gender")(e.target.value)}>
          <option value="">{t("add.notGiven")}</option>
          <option value="male">{t("add.male")}</option>
          <option value="female">{t("add.female")}</option>
          <option value="other">{t("add.other")}</option>
        </select>
        {errors.gender ? <span className="error">{errors.gender.join(", ")}</span> : null}
      </label>
      {field("email", t("add.email"), { type: "email", autoComplete: "off" })}
      <ErrorLine message={error} />
      <Button type="submit" className="big" isDisabled={pending}>
        {t("add.submit")}
      </Button>
    </form>
  );
}
