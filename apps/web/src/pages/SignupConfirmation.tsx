import { Trans, useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router-dom";
import { Card } from "../ui/Card.tsx";

export default function SignupConfirmation() {
  const { t } = useTranslation();
  const state = (useLocation().state ?? {}) as { email?: string; message?: string; token?: unknown };
  return (
    <Card title={t("signupConfirmation.title")}>
      <div className="confirmation">
        <svg viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" className="confirm-icon">
          <circle cx="24" cy="24" r="22" fill="currentColor" opacity="0.12" />
          <path d="M12 17h24v16H12z M12 17l12 9 12-9" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinejoin="round" />
        </svg>
        <p className="lead">{state.message || t("signupConfirmation.checkInbox")}</p>
        {state.email ? (
          <p>
            <Trans i18nKey="signupConfirmation.sentTo" values={{ email: state.email }} components={{ strong: <strong /> }} />
          </p>
        ) : null}
        <p className="muted small">
          <Trans i18nKey="signupConfirmation.noMail" components={{ resend: <Link to="/resend-verification-link" /> }} />
        </p>
        <Link to="/" className="btn btn-primary">
          {t("signupConfirmation.signIn")}
        </Link>
      </div>
    </Card>
  );
}
