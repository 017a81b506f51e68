import { ChangePasswordForm } from "@crown/core/accounts/schemas";
import { type FormEvent, useState } from "react";
import { Form } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { changePassword } from "../../api/account-pages.ts";
import { FormMessage, SubmitButton } from "../../ui/fields.tsx";
import { focusFirstError, useForm } from "../../forms/form.ts";
import { toast } from "../../ui/toasts.tsx";
import { FormField } from "../../forms/fields.tsx";
import { NewPasswordFields } from "../../forms/passwords.tsx";

const blank = { old_password: "", password: "", confirm_password: "" };

export function ChangePassword() {
  const { t } = useTranslation("profile");
  const form = useForm(blank);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    form.setFormError(null);
    const valid = form.validate(ChangePasswordForm);
    if (!valid) return focusFirstError();
    setPending(true);
    try {
      await changePassword(form.values.old_password, form.values.password);
      form.setValues(blank);
      toast(t("password.changed"), "success");
    } catch (err) {
      form.serverErrors(err, undefined, { new_password: "password" });
    } finally {
      setPending(false);
    }
  };
  return (
    <section aria-labelledby="section-title">
      <h2 id="section-title">{t("changePassword")}</h2>
      <p className="muted">{t("password.note")}</p>
      <Form onSubmit={submit} className="form narrow-form" validationBehavior="aria" aria-label={t("password.form")}>
        <FormField form={form} name="old_password" label={t("password.old")} type="password" autoComplete="current-password" />
        <NewPasswordFields form={form} label={t("password.new")} />
        {form.formError ? <FormMessage tone="error">{form.formError}</FormMessage> : null}
        <div className="form-actions">
          <SubmitButton isPending={pending}>{t("password.submit")}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
