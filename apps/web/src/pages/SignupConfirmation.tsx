import { Link, useLocation } from "react-router-dom";
import { Card } from "../ui/Card.tsx";

export default function SignupConfirmation() {
  const state = (useLocation().state ?? {}) as { email?: string; message?: string; token?: unknown };
  return (
    <Card title="Thanks for signing up!">
      <div className="confirmation">
        <svg viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" className="confirm-icon">
          <circle cx="24" cy="24" r="22" fill="currentColor" opacity="0.12" />
          <path d="M12 17h24v16H12z M12 17l12 9 12-9" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinejoin="round" />
        </svg>
        <p className="lead">{state.message || "Please check your email inbox and verify your email"}</p>
        {state.email ? (
          <p>
            We sent the link to <strong>{state.email}</strong>.
          </p>
        ) : null}
        <p className="muted small">
          No e-mail after a few minutes? Look in your spam folder or <Link to="/resend-verification-link">get a new verification link</Link>.
        </p>
        <Link to="/" className="btn btn-primary">
          Sign In
        </Link>
      </div>
    </Card>
  );
}
