import { useTranslation } from "react-i18next";
import { usePublicConfig } from "../api/publicConfig.ts";

/** True once the server has named at least one app store page (APP_STORE_URL, PLAY_STORE_URL). */
export const useHasAppLinks = () => {
  const config = usePublicConfig();
  return Boolean(config?.app_store_url || config?.play_store_url);
};

/** Links to the separate mobile apps (the spec: mobile browsers see them; login always shows them), only those the server configures. */
export function AppLinks({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const config = usePublicConfig();
  const ios = config?.app_store_url;
  const android = config?.play_store_url;
  if (!ios && !android) return null;
  return (
    <div className={`app-links${compact ? " compact" : ""}`}>
      {ios ? (
        <a className="store-badge" href={ios} target="_blank" rel="noopener noreferrer">
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path fill="currentColor" d="M16.4 12.6c0-2.4 2-3.5 2-3.6-1.1-1.6-2.8-1.8-3.4-1.8-1.4-.2-2.8.8-3.5.8s-1.8-.8-3-.8c-1.5 0-3 .9-3.8 2.3-1.6 2.8-.4 7 1.2 9.3.8 1.1 1.7 2.4 2.9 2.3 1.2 0 1.6-.7 3-.7s1.8.7 3 .7c1.3 0 2.1-1.1 2.8-2.3.9-1.3 1.3-2.6 1.3-2.6s-2.5-1-2.5-3.6zM14.2 5.6c.6-.8 1.1-1.9 1-3-.9 0-2.1.6-2.7 1.4-.6.7-1.1 1.8-1 2.9 1 .1 2.1-.5 2.7-1.3z" />
          </svg>
          <span>
            <small>{t("shell.appStore")}</small> {"App Store"}
          </span>
        </a>
      ) : null}
      {android ? (
        <a className="store-badge" href={android} target="_blank" rel="noopener noreferrer">
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path fill="currentColor" d="M4 3.3v17.4c0 .4.4.6.7.4l9.4-9.1L4.7 2.9c-.3-.2-.7 0-.7.4zm11.2 7.6 2.6-2.6-11-6.3 8.4 8.9zm0 2.2-8.4 8.9 11-6.3-2.6-2.6zm5.3-1.9-2.2-1.3-2.9 2.1 2.9 2.1 2.2-1.3c.6-.4.6-1.2 0-1.6z" />
          </svg>
          <span>
            <small>{t("shell.googlePlay")}</small> {"Google Play"}
          </span>
        </a>
      ) : null}
    </div>
  );
}
