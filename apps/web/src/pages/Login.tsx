import { type FormEvent, useEffect, useState } from "react";
import { Button, Form } from "react-aria-components";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { signIn } from "../api/accounts.ts";
import { ApiError, FALLBACK_MESSAGE } from "../api/client.ts";
import { sessionFromSignIn } from "../machines/session.ts";
import { homeFor } from "../session/home.ts";
import { sessionActor, useNotice } from "../session/store.ts";
import { AppLinks } from "../ui/AppLinks.tsx";
import { CheckField, Field, FormMessage, SubmitButton } from "../ui/fields.tsx";
import { firstMessages, focusFirstError, useFormState } from "../ui/form-state.ts";
import { Card } from "../ui/Card.tsx";
import { toast } from "../ui/toasts.tsx";
import { FormField } from "../forms/fields.tsx";
import { BLOCKED_STATUS, WAITING_APPROVAL_STATUS } from "@crown/core/accounts/lifecycle";
import { waitsForApproval } from "@crown/core/onboarding/lifecycle";

/** The server's message for an expired password; the login shows its own text with a reset link. */
export const PASSWORD_EXPIRED_MESSAGE = "Your password has expired. Please reset your password.";

interface LoginError {
  readonly message: string;
  readonly httpStatus: number;
  readonly status?: string | undefined;
}

/** A signed-in route the guard sent the visitor away from (e.g. /remove-account opened in a new tab), if it is safe to return to. */
const returnPath = (state: unknown): string | null => {
  const from = state && typeof state === "object" ? (state as { from?: unknown }).from : undefined;
  return typeof from === "string" && from.startsWith("/") && !from.startsWith("//") && from !== "/" ? from : null;
};

export default function Login() {
  const navigate = useNavigate();
  const location = useLocation();
  const notice = useNotice();
  const form = useFormState({ email: "", password: "" });
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<LoginError | null>(null);
  const [pending, setPending] = useState(false);
  const [shownNotice] = useState(notice);

  useEffect(() => {
    if (notice) sessionActor.send({ type: "NOTICE_SEEN" });
  }, [notice]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    // The schemas (and Effect's runtime under them) load on the first submit, not with the page (issue 19).
    const [{ SignInRequest }, { check }, { Either }] = await Promise.all([import("@crown/core/accounts/schemas"), import("@crown/core/shared/validation"), import("effect")]);
    const checked = check(SignInRequest, form.values);
    if (Either.isLeft(checked)) {
      form.setErrors(firstMessages(checked.left.errors));
      return focusFirstError();
    }
    form.setErrors({});
    const valid = checked.right;
    setPending(true);
    try {
      const { results } = await signIn(valid.email, form.values.password, remember);
      const session = sessionFromSignIn(results, remember);
      if (waitsForApproval(session.step)) {
        setError({ message: "Your account needs approval before proceeding further! We will contact you once an administrator has reviewed it.", httpStatus: 403, status: WAITING_APPROVAL_STATUS });
        return;
      }
      sessionActor.send({ type: "SIGNED_IN", session });
      // Onboarding steps (baby details, BAA, disclaimer, a due quiz) come first; otherwise back to where the user was going.
      const home = homeFor(session);
      const back = returnPath(location.state);
      navigate(back && !session.isFirstLogin && (home === "/dashboard" || home === "/review" || home === "/admin") ? back : home, { replace: true });
    } catch (err) {
      if (err instanceof ApiError) {
        form.serverErrors(err);
        setError({ message: err.message, httpStatus: err.httpStatus, status: err.status });
      } else setError({ message: FALLBACK_MESSAGE, httpStatus: 0 });
    } finally {
      setPending(false);
    }
  };

  const expired = error && (error.message === PASSWORD_EXPIRED_MESSAGE || error.status === "PasswordExpired");
  // The e-mail goes on in the router's state, not the URL: the reset or resend form starts filled in.
  const withEmail = { email: form.values.email.trim() };
  const needsVerification = error && error.httpStatus === 403 && !expired && error.status !== BLOCKED_STATUS && error.status !== WAITING_APPROVAL_STATUS;

  return (
    <Card title="Sign In" subtitle="Welcome back. Sign in to upload this month's head photos and read your reports.">
      {shownNotice ? <FormMessage tone={shownNotice.tone}>{shownNotice.text}</FormMessage> : null}
      <div className="provider-welcome">
        <strong>Pediatric providers:</strong> welcome to Crown. Scan every infant aged 0-7 months monthly, per pediatric guidance, and find
        your patients' reports right after you sign in.
      </div>
      <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label="Sign in">
        <Field name="email" label="Email" type="email" autoComplete="username" value={form.values.email} onChange={(v) => form.set("email", v)} error={form.errors.email} />
        <FormField form={form} name="password" label="Password" type="password" autoComplete="current-password" />
        <div className="row-between">
          <CheckField name="remember_me" isSelected={remember} onChange={setRemember}>
            Remember me
          </CheckField>
          <Link to="/forgot-password">Forgot password?</Link>
        </div>
        <SubmitButton isPending={pending} className="btn-block">
          Sign In
        </SubmitButton>
        {error ? (
          <div className="login-error" role="alert">
            {expired ? (
              <p>
                Your password has expired.{" "}
                <Link to="/forgot-password" state={withEmail}>
                  Click here
                </Link>{" "}
                to reset it.
              </p>
            ) : (
              <p>{error.message}</p>
            )}
            {needsVerification ? (
              <p>
                <Link to="/resend-verification-link" state={withEmail}>
                  Resend verification link
                </Link>
              </p>
            ) : null}
          </div>
        ) : null}
      </Form>
      <div className="divider">
        <span>or</span>
      </div>
      <div className="social-buttons">
        {["Google", "Apple", "Facebook"].map((p) => (
          <Button key={p} className="btn btn-social" onPress={() => toast(`Sign in with ${p} is not offered yet. Please sign in with your email and password.`, "info")}>
            Continue with {p}
          </Button>
        ))}
      </div>
      <p className="center">
        Don't have an account? <Link to="/sign-up">Sign Up</Link>
      </p>
      <p className="center small">
        Password expired? <Link to="/forgot-password">Reset it here</Link>
      </p>
      <AppLinks />
    </Card>
  );
}
