import { RemovalRequestBody } from "@crown/core/accounts/removal-schemas";
import { type FormEvent, useState } from "react";
import { FieldError, Form, Label, TextArea, TextField } from "react-aria-components";
import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { crown, encodePassword } from "../../api/crown.ts";
import { links } from "../../config.ts";
import { useSession } from "../../session/store.ts";
import { FormMessage, SubmitButton } from "../../ui/fields.tsx";
import { focusFirstError, useForm } from "../../forms/form.ts";
import { FormField } from "../../forms/fields.tsx";

const requestRemoval = (password: string, reason: string) =>
  crown.call((api) => api.user["remove-account"].$post({ json: { password: encodePassword(password), ...(reason.trim() ? { reason: reason.trim() } : {}) } }), {
    // A wrong password is an answer for this form, never a lost session.
    keepSessionOn401: true,
  });

/**
 * /remove-account: Crown's account removal page, opened from Profile in a new tab. The signed-in user
 * confirms with the password; the server records the request, audits it, e-mails a confirmation, and
 * lists it for Crown's administrators.
 */
export default function RemoveAccount() {
  const { t } = useTranslation("profile");
  const session = useSession();
  const form = useForm({ password: "", reason: "" });
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const family = session?.userRole === "parent" || session?.userRole === "other";

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    form.setFormError(null);
    const valid = form.validate(RemovalRequestBody);
    if (!valid) return focusFirstError();
    setPending(true);
    try {
      const { message } = await requestRemoval(form.values.password, form.values.reason);
      form.setValues({ password: "", reason: "" });
      setDone(message);
    } catch (err) {
      form.serverErrors(err);
      focusFirstError();
    } finally {
      setPending(false);
    }
  };

  return (
    <section className="panel narrow-page" aria-labelledby="page-title">
      <h1 id="page-title">{t("remove.title")}</h1>
      {session ? (
        <p className="card-subtitle">
          {session.email
            ? t("remove.signedInAsEmail", { name: `${session.firstName} ${session.lastName}`, email: session.email })
            : t("remove.signedInAs", { name: `${session.firstName} ${session.lastName}` })}
        </p>
      ) : null}
      <p>{t("remove.intro")}</p>
      <ul>
        <li>{t("remove.records")}</li>
        <li>{t("remove.confirms")}</li>
        {/* A family's account is erased by Crown after the grace period (issue 44); others' requests go to the administrators. */}
        {family ? <li>{t("remove.family")}</li> : <li>{t("remove.admins")}</li>}
      </ul>
      <p>
        <Trans
          t={t}
          i18nKey="remove.until"
          values={{ email: links.supportEmail }}
          components={{ privacy: <Link to="/privacy-policy" />, mail: <a href={`mailto:${links.supportEmail}`} /> }}
        />
      </p>
      {done ? (
        <>
          <FormMessage tone="success">{done}</FormMessage>
          <p>
            <Link to="/profile">{t("remove.back")}</Link>
          </p>
        </>
      ) : (
        <Form onSubmit={submit} className="form narrow-form" validationBehavior="aria" aria-label={t("remove.form")}>
          <FormField form={form} name="password" label={t("remove.password")} type="password" autoComplete="current-password" description={t("remove.passwordHint")} />
          <TextField className="field" name="reason" value={form.values.reason} onChange={(v) => form.set("reason", v)} isInvalid={Boolean(form.errors.reason)} validationBehavior="aria" maxLength={1000}>
            <Label>{t("remove.reason")}</Label>
            <TextArea rows={3} />
            <FieldError>{form.errors.reason}</FieldError>
          </TextField>
          {form.formError && !form.errors.password ? <FormMessage tone="error">{form.formError}</FormMessage> : null}
          <div className="form-actions">
            <SubmitButton isPending={pending}>{t("remove.submit")}</SubmitButton>
          </div>
        </Form>
      )}
    </section>
  );
}
