import { EmailRequest } from "@crown/core/accounts/schemas";
import { type FormEvent, useState } from "react";
import { Form } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";
import { messageOf } from "../api/crown.ts";
import { Field, FormMessage, SubmitButton } from "../ui/fields.tsx";
import { focusFirstError, useForm } from "../forms/form.ts";
import { Card } from "../ui/Card.tsx";

/** Forgot-password and resend-verification share one shape: an e-mail, a button, a message. */
export function EmailRequestPage(p: { title: string; subtitle: string; button: string; success: string; send: (email: string) => Promise<unknown> }) {
  const { t } = useTranslation("account");
  // The sign-in screen hands over the e-mail it was given (issue 22, item 13).
  const given = (useLocation().state as { email?: unknown } | null)?.email;
  const form = useForm({ email: typeof given === "string" ? given : "" });
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    form.setFormError(null);
    const valid = form.validate(EmailRequest);
    if (!valid) return focusFirstError();
    setPending(true);
    try {
      await p.send(valid.email);
      setDone(p.success);
    } catch (err) {
      form.serverErrors(err, messageOf(err));
    } finally {
      setPending(false);
    }
  };
  return (
    <Card title={p.title} subtitle={p.subtitle}>
      <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label={p.title}>
        <Field name="email" label={t("emailRequest.email")} type="email" autoComplete="email" value={form.values.email} onChange={(v) => form.set("email", v)} error={form.errors.email} />
        {done ? <FormMessage tone="success">{done}</FormMessage> : null}
        {form.formError ? <FormMessage tone="error">{form.formError}</FormMessage> : null}
        <SubmitButton isPending={pending} className="btn-block">
          {p.button}
        </SubmitButton>
      </Form>
      <p className="center">
        <Link to="/">{t("emailRequest.back")}</Link>
      </p>
    </Card>
  );
}
