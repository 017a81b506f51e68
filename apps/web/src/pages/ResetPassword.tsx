import { ResetPasswordForm } from "@crown/core/accounts/schemas";
import { type FormEvent, useEffect, useState } from "react";
import { Button, Form } from "react-aria-components";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { resetPassword } from "../api/accounts.ts";
import { isMobileBrowser } from "../config.ts";
import { ModalDialog } from "../ui/dialogs.tsx";
import { Field, FormMessage, SubmitButton } from "../ui/fields.tsx";
import { focusFirstError, useForm } from "../ui/form.ts";
import { Card } from "../ui/Card.tsx";

/** The mobile app opens the same path and query through its own scheme. */
export const appDeepLink = (search: string) => `crown://reset-password${search}`;

export default function ResetPassword() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get("token") ?? "";
  const email = params.get("email") ?? "";
  const form = useForm({ password: "", confirm_password: "" });
  const [pending, setPending] = useState(false);
  const [success, setSuccess] = useState(false);

  useEffect(() => {
    // On a phone, hand the link to the app; if it is not installed the browser stays on this form.
    if (isMobileBrowser()) window.location.href = appDeepLink(window.location.search);
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    form.setFormError(null);
    const valid = form.validate(ResetPasswordForm);
    if (!valid) return focusFirstError();
    setPending(true);
    try {
      await resetPassword(token, email, form.values.password);
      setSuccess(true);
    } catch (err) {
      form.serverErrors(err);
    } finally {
      setPending(false);
    }
  };

  const close = () => navigate("/", { replace: true });

  return (
    <Card title="Reset Password" subtitle={email ? `Choose a new password for ${email}.` : "Choose a new password."}>
      {!token ? (
        <FormMessage tone="error">
          This reset link is incomplete. <Link to="/forgot-password">Ask for a new one</Link>.
        </FormMessage>
      ) : null}
      <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label="Reset password">
        <Field
          name="password"
          label="New password"
          type="password"
          autoComplete="new-password"
          value={form.values.password}
          onChange={(v) => form.set("password", v)}
          error={form.errors.password}
          description="At least 8 characters with an upper case letter, a lower case letter, a number and one of !@#$%^&*-_"
        />
        <Field name="confirm_password" label="Confirm password" type="password" autoComplete="new-password" value={form.values.confirm_password} onChange={(v) => form.set("confirm_password", v)} error={form.errors.confirm_password} />
        {form.formError ? (
          <FormMessage tone="error">
            {form.formError} <Link to="/forgot-password">Get a new reset link</Link>
          </FormMessage>
        ) : null}
        <SubmitButton isPending={pending} className="btn-block">
          Reset Password
        </SubmitButton>
      </Form>
      <p className="center">
        <Link to="/">Back to Sign In</Link>
      </p>
      <ModalDialog isOpen={success} onOpenChange={(o) => !o && close()} title="Password changed successfully" dismissable>
        <p>You can now sign in with your new password.</p>
        <div className="dialog-actions">
          <Button className="btn btn-primary" onPress={close} autoFocus>
            Sign In
          </Button>
        </div>
      </ModalDialog>
    </Card>
  );
}
