import { AcceptInvitationForm, ResetPasswordForm } from "@crown/core/accounts/schemas";
import { type FormEvent, useEffect, useState } from "react";
import { Button, Form } from "react-aria-components";
import { Trans, useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { resetPassword } from "../api/account-pages.ts";
import { isMobileBrowser } from "../config.ts";
import { ModalDialog } from "../ui/dialogs.tsx";
import { Field, FormMessage, SubmitButton } from "../ui/fields.tsx";
import { focusFirstError, useForm } from "../forms/form.ts";
import { Card } from "../ui/Card.tsx";
import { NewPasswordFields } from "../forms/passwords.tsx";

/** The mobile app opens the same path and query through its own scheme. */
export const appDeepLink = (search: string) => `crown://reset-password${search}`;

export default function ResetPassword() {
  const { t } = useTranslation("account");
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get("token") ?? "";
  const email = params.get("email") ?? "";
  // An invitation (staff, caregivers) uses the same call; it sets a first password rather than resetting one.
  const invitation = params.get("invite") === "1";
  const form = useForm({ first_name: "", last_name: "", password: "", confirm_password: "" });
  const [pending, setPending] = useState(false);
  const [success, setSuccess] = useState(false);

  useEffect(() => {
    // On a phone, hand a reset link to the app; if it is not installed the browser stays on this form.
    // Invitations stay in the browser: the invited person has no app session to return to yet.
    if (isMobileBrowser() && !invitation) window.location.href = appDeepLink(window.location.search);
  }, [invitation]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    form.setFormError(null);
    const valid = invitation ? form.validate(AcceptInvitationForm) : form.validate(ResetPasswordForm, { password: form.values.password, confirm_password: form.values.confirm_password });
    if (!valid) return focusFirstError();
    setPending(true);
    try {
      const names = invitation ? { first_name: form.values.first_name.trim(), last_name: form.values.last_name.trim() } : undefined;
      await resetPassword(token, email, form.values.password, names);
      setSuccess(true);
    } catch (err) {
      form.serverErrors(err);
    } finally {
      setPending(false);
    }
  };

  const close = () => navigate("/", { replace: true });

  return (
    <Card
      title={invitation ? t("reset.inviteTitle") : t("reset.title")}
      subtitle={
        invitation
          ? email
            ? t("reset.inviteSubtitleFor", { email })
            : t("reset.inviteSubtitle")
          : email
            ? t("reset.subtitleFor", { email })
            : t("reset.subtitle")
      }
    >
      {!token ? (
        <FormMessage tone="error">
          {invitation ? t("reset.inviteIncomplete") : <Trans t={t} i18nKey="reset.incomplete" components={{ go: <Link to="/forgot-password" /> }} />}
        </FormMessage>
      ) : null}
      <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label={invitation ? t("reset.inviteForm") : t("reset.form")}>
        {invitation ? (
          <div className="grid-2">
            <Field name="first_name" label={t("reset.firstName")} autoComplete="given-name" value={form.values.first_name} onChange={(v) => form.set("first_name", v)} error={form.errors.first_name} />
            <Field name="last_name" label={t("reset.lastName")} autoComplete="family-name" value={form.values.last_name} onChange={(v) => form.set("last_name", v)} error={form.errors.last_name} />
          </div>
        ) : null}
        <NewPasswordFields form={form} label={t("reset.newPassword")} />
        {form.formError ? (
          <FormMessage tone="error">
            {form.formError}{" "}
            {invitation ? t("reset.inviteAgain") : <Link to="/forgot-password">{t("reset.newLink")}</Link>}
          </FormMessage>
        ) : null}
        <SubmitButton isPending={pending} className="btn-block">
          {invitation ? t("reset.inviteSubmit") : t("reset.submit")}
        </SubmitButton>
      </Form>
      <p className="center">
        <Link to="/">{t("reset.back")}</Link>
      </p>
      <ModalDialog isOpen={success} onOpenChange={(o) => !o && close()} title={invitation ? t("reset.inviteDone") : t("reset.done")} dismissable>
        <p>{invitation ? t("reset.inviteDoneText") : t("reset.doneText")}</p>
        <div className="dialog-actions">
          <Button className="btn btn-primary" onPress={close} autoFocus>
            {t("reset.signIn")}
          </Button>
        </div>
      </ModalDialog>
    </Card>
  );
}
