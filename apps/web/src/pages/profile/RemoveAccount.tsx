import { RemovalRequestBody } from "@crown/core/accounts/removal-schemas";
import { type FormEvent, useState } from "react";
import { FieldError, Form, Label, TextArea, TextField } from "react-aria-components";
import { Link } from "react-router-dom";
import { encodePassword, request } from "../../api/client.ts";
import { links } from "../../config.ts";
import { useSession } from "../../session/store.ts";
import { FormMessage, SubmitButton } from "../../ui/fields.tsx";
import { focusFirstError, useForm } from "../../ui/form.ts";
import { FormField } from "../../forms/fields.tsx";

const requestRemoval = (password: string, reason: string) =>
  request<{ identifier: string; requested_at: string }>("POST", "/user/remove-account", {
    // A wrong password is an answer for this form, never a lost session.
    keepSessionOn401: true,
    json: { password: encodePassword(password), ...(reason.trim() ? { reason: reason.trim() } : {}) },
  });

/**
 * /remove-account: Crown's account removal page, opened from Profile in a new tab. The signed-in user
 * confirms with the password; the server records the request, audits it, e-mails a confirmation, and
 * lists it for Crown's administrators.
 */
export default function RemoveAccount() {
  const session = useSession();
  const form = useForm({ password: "", reason: "" });
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState<string | null>(null);

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
      <h1 id="page-title">Remove your account</h1>
      {session ? (
        <p className="card-subtitle">
          Signed in as {session.firstName} {session.lastName}
          {session.email ? ` (${session.email})` : ""}.
        </p>
      ) : null}
      <p>When you send this request, Crown:</p>
      <ul>
        <li>records your request and notes it in the audit log;</li>
        <li>sends a confirmation to your account's e-mail address;</li>
        <li>shows the request to Crown's administrators, who handle it and contact you at that e-mail address.</li>
      </ul>
      <p>
        Until then your account stays as it is and you can still sign in. See the <Link to="/privacy-policy">Privacy Policy</Link> for what we keep
        and why, or write to <a href={`mailto:${links.supportEmail}`}>{links.supportEmail}</a>.
      </p>
      {done ? (
        <>
          <FormMessage tone="success">{done}</FormMessage>
          <p>
            <Link to="/profile">Back to Profile</Link>
          </p>
        </>
      ) : (
        <Form onSubmit={submit} className="form narrow-form" validationBehavior="aria" aria-label="Request account removal">
          <FormField form={form} name="password" label="Password" type="password" autoComplete="current-password" description="Confirm with the password you sign in with." />
          <TextField className="field" name="reason" value={form.values.reason} onChange={(v) => form.set("reason", v)} isInvalid={Boolean(form.errors.reason)} validationBehavior="aria" maxLength={1000}>
            <Label>Why are you leaving? (optional)</Label>
            <TextArea rows={3} />
            <FieldError>{form.errors.reason}</FieldError>
          </TextField>
          {form.formError && !form.errors.password ? <FormMessage tone="error">{form.formError}</FormMessage> : null}
          <div className="form-actions">
            <SubmitButton isPending={pending}>Request account removal</SubmitButton>
          </div>
        </Form>
      )}
    </section>
  );
}
