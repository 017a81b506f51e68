import { type FormEvent, useEffect, useState } from "react";
import { Button, Form } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { signIn } from "../api/accounts.ts";
import { ApiError, fallbackMessage, SECOND_FACTOR_STEP_REQUIRED } from "../api/crown.ts";
import { sessionFromSignIn } from "../session/machine.ts";
import { landingFor } from "../session/home.ts";
import { sessionActor, useNotice } from "../session/store.ts";
import { type PublicConfig, usePublicConfig } from "../api/publicConfig.ts";
import { AppLinks } from "../shell/AppLinks.tsx";
import { CheckField, Field, FormMessage, SubmitButton } from "../ui/fields.tsx";
import { firstMessages, focusFirstError, useFormState } from "../forms/form-state.ts";
import { Card } from "../ui/Card.tsx";
import { FormField } from "../forms/fields.tsx";
import { LanguageSwitcher } from "../i18n/LanguageSwitcher.tsx";
import { BLOCKED_STATUS, WAITING_APPROVAL_STATUS } from "@crown/core/accounts/statuses";
import { waitsForApproval } from "@crown/core/onboarding/steps";

/** The server's message for an expired password; the login shows its own text with a reset link. */
export const PASSWORD_EXPIRED_MESSAGE = "Your password has expired. Please reset your password.";

interface LoginError {
  readonly message: string;
  readonly httpStatus: number;
  readonly status?: string | undefined;
}

export default function Login() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const notice = useNotice();
  const form = useFormState({ email: "", password: "" });
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<LoginError | null>(null);
  const [pending, setPending] = useState(false);
  const [shownNotice] = useState(notice);
  // The second step (issue 44): after the right password, the code (or a passkey) is asked here.
  const [secondStep, setSecondStep] = useState(false);
  const [code, setCode] = useState("");
  const [useRecovery, setUseRecovery] = useState(false);

  useEffect(() => {
    if (notice) sessionActor.send({ type: "NOTICE_SEEN" });
  }, [notice]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    // The schemas (and Effect's Schema under them) load on the first submit, not with the page (issue 19).
    const [{ SignInRequest }, { check }] = await Promise.all([import("@crown/core/accounts/schemas"), import("@crown/core/shared/validation")]);
    const checked = check(SignInRequest, form.values);
    if (checked._tag === "Left") {
      form.setErrors(firstMessages(checked.left.errors));
      return focusFirstError();
    }
    form.setErrors({});
    const valid = checked.right;
    if (secondStep && !code.trim()) {
      setError({ message: t("login.codeRequired"), httpStatus: 422 });
      return;
    }
    setPending(true);
    try {
      const { results } = await signIn(valid.email, form.values.password, remember, secondStep ? code.trim() : undefined);
      enter(results);
    } catch (err) {
      if (err instanceof ApiError && err.httpStatus === 403 && err.status === SECOND_FACTOR_STEP_REQUIRED) {
        setSecondStep(true);
        setCode("");
        return;
      }
      if (err instanceof ApiError) {
        form.serverErrors(err);
        setError({ message: err.message, httpStatus: err.httpStatus, status: err.status });
      } else setError({ message: fallbackMessage(), httpStatus: 0 });
    } finally {
      setPending(false);
    }
  };

  const enter = (results: Parameters<typeof sessionFromSignIn>[0]) => {
    const session = sessionFromSignIn(results, remember);
    if (waitsForApproval(session.step)) {
      setError({ message: t("login.waitingApproval"), httpStatus: 403, status: WAITING_APPROVAL_STATUS });
      return;
    }
    sessionActor.send({ type: "SIGNED_IN", session });
    navigate(landingFor(session, location.state), { replace: true });
  };

  /** A passkey alone signs in (it is both factors); on the second step it stands for the code. */
  const passkey = async () => {
    setError(null);
    setPending(true);
    try {
      const [{ passkeySignInOptions, signInWithPasskey }, { signWithPasskey }] = await Promise.all([import("../api/secondFactor.ts"), import("../security/passkeys.ts")]);
      const { results } = await passkeySignInOptions(form.values.email.trim());
      const response = await signWithPasskey(results.options);
      enter((await signInWithPasskey(response, remember)).results);
    } catch (err) {
      setError(err instanceof ApiError ? { message: err.message, httpStatus: err.httpStatus, status: err.status } : { message: t("login.passkeyCancelled"), httpStatus: 0 });
    } finally {
      setPending(false);
    }
  };

  const expired = error && (error.message === PASSWORD_EXPIRED_MESSAGE || error.status === "PasswordExpired");
  // The e-mail goes on in the router's state, not the URL: the reset or resend form starts filled in.
  const withEmail = { email: form.values.email.trim() };
  const needsVerification = error && error.httpStatus === 403 && error.status !== SECOND_FACTOR_STEP_REQUIRED && !expired && error.status !== BLOCKED_STATUS && error.status !== WAITING_APPROVAL_STATUS;

  return (
    <Card title={t("login.title")} subtitle={t("login.subtitle")}>
      <LanguageSwitcher />
      {shownNotice ? <FormMessage tone={shownNotice.tone}>{shownNotice.text}</FormMessage> : null}
      <div className="provider-welcome">
        <strong>{t("login.providersLead")}</strong> {t("login.providers")}
      </div>
      <Form onSubmit={submit} className="form" validationBehavior="aria" aria-label={t("login.form")}>
        <Field name="email" label={t("login.email")} type="email" autoComplete="username" value={form.values.email} onChange={(v) => form.set("email", v)} error={form.errors.email} />
        <FormField form={form} name="password" label={t("login.password")} type="password" autoComplete="current-password" />
        {secondStep ? (
          <div className="second-step" role="group" aria-labelledby="second-step-title">
            <h2 id="second-step-title" className="small-title">
              {t("login.secondStepTitle")}
            </h2>
            <p className="small">{useRecovery ? t("login.recoveryHelp") : t("login.codeHelp")}</p>
            <Field
              name="code"
              label={useRecovery ? t("login.recoveryCode") : t("login.code")}
              value={code}
              onChange={setCode}
              inputMode={useRecovery ? "text" : "numeric"}
              autoComplete="one-time-code"
              maxLength={useRecovery ? 20 : 7}
              autoFocus
            />
            <Button className="link-button" onPress={() => setUseRecovery((r) => !r)}>
              {useRecovery ? t("login.useApp") : t("login.useRecovery")}
            </Button>
          </div>
        ) : null}
        <div className="row-between">
          <CheckField name="remember_me" isSelected={remember} onChange={setRemember}>
            {t("login.remember")}
          </CheckField>
          <Link to="/forgot-password">{t("login.forgot")}</Link>
        </div>
        <SubmitButton isPending={pending} className="btn-block">
          {secondStep ? t("login.verify") : t("login.submit")}
        </SubmitButton>
        <Button className="btn btn-secondary btn-block" onPress={() => void passkey()} isDisabled={pending}>
          {t("login.passkey")}
        </Button>
        {error ? (
          <div className="login-error" role="alert">
            {expired ? (
              <p>
                {t("login.expired")}{" "}
                <Link to="/forgot-password" state={withEmail}>
                  {t("login.expiredLink")}
                </Link>{" "}
                {t("login.expiredRest")}
              </p>
            ) : (
              <p>{error.message}</p>
            )}
            {needsVerification ? (
              <p>
                <Link to="/resend-verification-link" state={withEmail}>
                  {t("login.resend")}
                </Link>
              </p>
            ) : null}
          </div>
        ) : null}
      </Form>
      <SocialSignIn />
      <p className="center">
        {t("login.noAccount")} <Link to="/sign-up">{t("login.signUp")}</Link>
      </p>
      <p className="center small">
        {t("login.expiredQuestion")} <Link to="/forgot-password">{t("login.resetHere")}</Link>
      </p>
      <AppLinks />
    </Card>
  );
}

/** The social sign-in buttons the operator has set up (GOOGLE_, APPLE_, FACEBOOK_SIGN_IN_URL); none without (issue 46). */
function SocialSignIn() {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const offered = SOCIAL_PROVIDERS.flatMap(([provider, key]) => {
    const href = config?.[key];
    return href ? [{ provider, href }] : [];
  });
  if (offered.length === 0) return null;
  return (
    <>
      <div className="divider">
        <span>{t("login.or")}</span>
      </div>
      <div className="social-buttons">
        {offered.map(({ provider, href }) => (
          <a key={provider} className="btn btn-social" href={href}>
            {t("login.social", { provider })}
          </a>
        ))}
      </div>
    </>
  );
}

const SOCIAL_PROVIDERS = [
  ["Google", "google_sign_in_url"],
  ["Apple", "apple_sign_in_url"],
  ["Facebook", "facebook_sign_in_url"],
] as const satisfies ReadonlyArray<readonly [string, keyof PublicConfig]>;
