import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";

export function Logo({ to = "/" }: { to?: string }) {
  const { t } = useTranslation();
  return (
    <Link to={to} className="logo" aria-label={t("shell.home")}>
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
        <circle cx="16" cy="16" r="15" fill="currentColor" />
        <path d="M8 21l2-10 4 5 2-7 2 7 4-5 2 10z" fill="#fff" />
      </svg>
      <span>{"Crown"}</span>
    </Link>
  );
}
