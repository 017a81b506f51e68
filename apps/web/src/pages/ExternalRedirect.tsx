import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { Trans, useTranslation } from "react-i18next";
import { messageOf } from "../api/crown.ts";
import { loadPublicConfig } from "../api/publicConfig.ts";
import { FormMessage } from "../ui/fields.tsx";

/** /buy-kits and /webinar leave the portal for the addresses the server is configured with (GET /config). */
export default function ExternalRedirect({ to }: { to: "shop" | "webinar" }) {
  const { t } = useTranslation("account");
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // No address configured: said in the current language at render.
  const [missing, setMissing] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    setMissing(false);
    loadPublicConfig()
      .then((c) => {
        const target = to === "shop" ? c.buy_kits_url : c.webinar_url;
        if (!live) return;
        if (!target) {
          setMissing(true);
          return;
        }
        setUrl(target);
        window.location.assign(target);
      })
      .catch((e: unknown) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [to, attempt]);
  return (
    <section className="card" aria-labelledby="page-title">
      <h1 id="page-title">{to === "shop" ? t("external.openingShop") : t("external.openingWebinar")}</h1>
      {error || missing ? (
        <>
          <FormMessage tone="error">{error ?? (to === "shop" ? t("external.noShop") : t("external.noWebinar"))}</FormMessage>
          <Button className="btn btn-secondary" onPress={() => setAttempt((n) => n + 1)}>
            {t("external.retry")}
          </Button>
        </>
      ) : url ? (
        <p>
          <Trans t={t} i18nKey="external.fallback" components={{ go: <a href={url} /> }} />
        </p>
      ) : (
        <p>{t("external.wait")}</p>
      )}
    </section>
  );
}
