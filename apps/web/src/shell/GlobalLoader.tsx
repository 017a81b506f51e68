import { useTranslation } from "react-i18next";
import { usePendingRequests } from "../api/pending.ts";

/** The global loader: a thin bar at the top while any request is in flight (no layout shift). */
export function GlobalLoader() {
  const { t } = useTranslation();
  const pending = usePendingRequests();
  return (
    <div className={`global-loader${pending > 0 ? " is-active" : ""}`} role="progressbar" aria-label={t("shell.loadingBar")} aria-hidden={pending === 0} aria-busy={pending > 0}>
      <div className="global-loader-bar" />
    </div>
  );
}
