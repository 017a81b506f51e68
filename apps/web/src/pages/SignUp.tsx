import { SignUpForm } from "@crown/core/accounts/schemas";
import { type FormEvent, useState } from "react";
import { Button, Form, Label, Radio, RadioGroup } from "react-aria-components";
import { Trans, useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { signUp } from "../api/account-pages.ts";
import { messageOf } from "../api/crown.ts";
import { CheckField, Field, SubmitButton } from "../ui/fields.tsx";
import { focusFirstError, useForm } from "../forms/form.ts";
import { Card } from "../ui/Card.tsx";
import { toast } from "../ui/toasts.tsx";
import { NewPasswordFields } from "../forms/passwords.tsx";
import { MobileField } from "../ui/MobileField.tsx";

type Role = "physician" | "parent" | "other";
/** The roles one may sign up as; their words are `signUp.roles.<id>` in the catalogues. */
const ROLES: ReadonlyArray<{ id: Role }> = [{ id: "physician" }, { id: "parent" }, { id: "other" }];

export default function SignUp() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const urlType = params.get("type");
  const inviteToken = params.get("token") ?? undefined;
  const preset = ROLES.find((r) => r.id === urlType)?.id ?? null;
  const [role, setRole] = useState<Role | null>(preset);
  const [chosen, setChosen] = useState<Role | null>(preset);
  const [pending, setPending] = useState(false);
  const form = useForm({ first_name: "", last_name: "", email: "", password: "", confirm_password: "", phone: "", npi: "", terms: false as boolean });

  if (!chosen) {
    return (
      <Card title={t("signUp.chooseTitle")} subtitle={t("signUp.chooseSubtitle")}>
        <RadioGroup className="role-choice" value={role} onChange={(v) => setRole(v as Role)} aria-label={t("signUp.iAm")}>
          <Label className="sr-only">{t("signUp.iAm")}</Label>
          {ROLES.map((r) => (
            <Radio key={r.id} value={r.id} className="role-card">
              <strong>{t(`signUp.roles.${r.id}.label`)}</strong>
              <span>{t(`signUp.roles.${r.id}.text`)}</span>
            </Radio>
          ))}
        </RadioGroup>
        <Button className="btn btn-primary btn-block" isDisabled={!role} onPress={() => setChosen(role)}>
          {t("signUp.continue")}
        </Button>
        <p className="center">
          {t("signUp.haveAccount")} <Link to="/">{t("signUp.signIn")}</Link>
        </p>
      </Card>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    form.setFormError(null);
    const valid = form.validate(SignUpForm, { ...form.values, type: chosen, register_type: "normal", terms: form.values.terms || undefined });
    if (!valid) return focusFirstError();
    setPending(true);
    try {
      const { message, results } = await signUp({
        first_name: valid.first_name,
        last_name: valid.last_name,
        email: valid.email,
        password: form.values.password,
        phone: valid.phone,
        type: chosen,
        // A provider's NPI number: the server requires it, and the practice is verified by Crown before it reaches patients.
        ...(chosen === "physician" ? { npi: form.values.npi } : {}),
        ...(inviteToken ? { token: inviteToken } : {}),
      });
      navigate("/signup-confirmation", { state: { token: results, email: results?.email ?? valid.email, message } });
    } catch (err) {
      // The spec shows a sign-up failure as an error notification, with each field's message by its field.
      form.serverErrors(err);
      form.setFormError(null);
      toast(messageOf(err), "error");
    } finally {
      setPending(false);
    }
  };

  return (
    <Card title={t("signUp.title", { role: t(`signUp.roles.${chosen}.label`) })} subtitle={t("signUp.allRequired")}>
      {!preset ? (
        <Button className="link-btn" onPress={() => setChosen(null)}>
          {t("signUp.otherRole")}
        </Button>
      ) : null}
      <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label={t("signUp.form")}>
        <div className="grid-2">
          <Field name="first_name" label={t("signUp.firstName")} autoComplete="given-name" value={form.values.first_name} onChange={(v) => form.set("first_name", v)} error={form.errors.first_name} />
          <Field name="last_name" label={t("signUp.lastName")} autoComplete="family-name" value={form.values.last_name} onChange={(v) => form.set("last_name", v)} error={form.errors.last_name} />
        </div>
        <Field name="email" label={t("signUp.email")} type="email" autoComplete="email" value={form.values.email} onChange={(v) => form.set("email", v)} error={form.errors.email} />
        <NewPasswordFields form={form} />
        <MobileField
          name="phone"
          label={t("signUp.phone")}
          autoComplete="tel-national"
          value={form.values.phone}
          onChange={(v) => form.set("phone", v)}
          error={form.errors.phone}
          description={t("signUp.phoneHint")}
        />
        {chosen === "physician" ? (
          <Field
            name="npi"
            label={t("signUp.npi")}
            inputMode="numeric"
            maxLength={12}
            value={form.values.npi}
            onChange={(v) => form.set("npi", v)}
            error={form.errors.npi}
            description={t("signUp.npiHint")}
          />
        ) : null}
        <CheckField name="terms" isSelected={form.values.terms} onChange={(v) => form.set("terms", v)} error={form.errors.terms}>
          <Trans
            i18nKey="signUp.terms"
            components={{ terms: <Link to="/terms-of-service" target="_blank" />, privacy: <Link to="/privacy-policy" target="_blank" /> }}
          />
        </CheckField>
        <SubmitButton isPending={pending} className="btn-block">
          {t("signUp.submit")}
        </SubmitButton>
      </Form>
      <p className="center">
        {t("signUp.haveAccount")} <Link to="/">{t("signUp.signIn")}</Link>
      </p>
    </Card>
  );
}
