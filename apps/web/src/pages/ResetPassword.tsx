import { AcceptInvitationForm, ResetPasswordForm } from "@crown/core/accounts/schemas";
import { type FormEvent, useEffect, useState } from "react";
import { Button, Form } from "react-aria-components";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { resetPassword } from "../api/accounts.ts";
import { isMobileBrowser } from "../config.ts";
import { ModalDialog } from "../ui/dialogs.tsx";
import { Field, FormMessage, SubmitButton } from "../ui/fields.tsx";
import { focusFirstError, useForm } from "../ui/form.ts";
import { Card } from "../ui/Card.tsx";
import { NewPasswordFields } from "../forms/passwords.tsx";

/** The mobile app opens the same path and query through its own scheme. */
export const appDeepLink = (search: string) => `crown://reset-password${search}`;

export default function ResetPassword() {
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
      title={invitation ? "Set your password" : "Reset Password"}
      subtitle={
        invitation
          ? `Welcome to Crown. Tell us your name and choose a password${email ? ` for ${email}` : ""} to finish setting up your account.`
          : email
            ? `Choose a new password for ${email}.`
            : "Choose a new password."
      }
    >
      {!token ? (
        <FormMessage tone="error">
          {invitation ? (
            "This invitation link is incomplete. Please open the link from your invitation e-mail again."
          ) : (
            <>
              This reset link is incomplete. <Link to="/forgot-password">Ask for a new one</Link>.
            </>
          )}
        </FormMessage>
      ) : null}
      <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label={invitation ? "Set your password" : "Reset password"}>
        {invitation ? (
          <div className="grid-2">
            <Field name="first_name" label="First name" autoComplete="given-name" value={form.values.first_name} onChange={(v) => form.set("first_name", v)} error={form.errors.first_name} />
            <Field name="last_name" label="Last name" autoComplete="family-name" value={form.values.last_name} onChange={(v) => form.set("last_name", v)} error={form.errors.last_name} />
          </div>
        ) : null}
        <NewPasswordFields form={form} label="New password" />
        {form.formError ? (
          <FormMessage tone="error">
            {form.formError}{" "}
            {invitation ? "Please ask whoever invited you to send a new invitation." : <Link to="/forgot-password">Get a new reset link</Link>}
          </FormMessage>
        ) : null}
        <SubmitButton isPending={pending} className="btn-block">
          {invitation ? "Set Password" : "Reset Password"}
        </SubmitButton>
      </Form>
      <p className="center">
        <Link to="/">Back to Sign In</Link>
      </p>
      <ModalDialog isOpen={success} onOpenChange={(o) => !o && close()} title={invitation ? "Your password is set" : "Password changed successfully"} dismissable>
        <p>{invitation ? "You can now sign in with your e-mail address and this password." : "You can now sign in with your new password."}</p>
        <div className="dialog-actions">
          <Button className="btn btn-primary" onPress={close} autoFocus>
            Sign In
          </Button>
        </div>
      </ModalDialog>
    </Card>
  );
}
