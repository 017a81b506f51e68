import { useTranslation } from "react-i18next";

/** A page's or a list's spinner until its first answer (the request bar is shell/GlobalLoader.tsx). */
export function PageSpinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="page-spinner" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label ?? t("shell.loading")}</span>
    </div>
  );
}
