import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { Trans, useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { messageOf } from "../api/crown.ts";
import { loadPublicConfig } from "../api/publicConfig.ts";
import { FormMessage } from "../ui/fields.tsx";

/**
 * /buy-kits and /webinar: with the operator's address set (BUY_KITS_URL, WEBINAR_URL; GET /config) they
 * leave the portal for it. Without one they are Crown's own pages: what a kit or a webinar is, and how to
 * ask the Crown team for one (issue 46: never an example address a newcomer would land on).
 */
export default function ExternalRedirect({ to }: { to: "shop" | "webinar" }) {
  const { t } = useTranslation("account");
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [crownsOwn, setCrownsOwn] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    setCrownsOwn(false);
    loadPublicConfig()
      .then((c) => {
        const target = to === "shop" ? c.buy_kits_url : c.webinar_url;
        if (!live) return;
        if (!target) {
          setCrownsOwn(true);
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
  if (crownsOwn) return to === "shop" ? <CrownKits /> : <CrownWebinars />;
  return (
    <section className="card" aria-labelledby="page-title">
      <h1 id="page-title">{to === "shop" ? t("external.openingShop") : t("external.openingWebinar")}</h1>
      {error ? (
        <>
          <FormMessage tone="error">{error}</FormMessage>
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

/** Buy Kits without a shop: what the kit is for, photos without one, and asking the team. */
function CrownKits() {
  const { t } = useTranslation("account");
  return (
    <section className="card card-wide" aria-labelledby="page-title">
      <h1 id="page-title">{t("external.kits.title")}</h1>
      <p>{t("external.kits.intro")}</p>
      <h2>{t("external.kits.withoutTitle")}</h2>
      <p>
        <Trans t={t} i18nKey="external.kits.without" components={{ instructions: <Link to="/instructions" /> }} />
      </p>
      <h2>{t("external.kits.orderTitle")}</h2>
      <p>{t("external.kits.order")}</p>
    </section>
  );
}

/** Webinar without a booking page: what a session covers, asking the team, and the pages meanwhile. */
function CrownWebinars() {
  const { t } = useTranslation("account");
  return (
    <section className="card card-wide" aria-labelledby="page-title">
      <h1 id="page-title">{t("external.webinar.title")}</h1>
      <p>{t("external.webinar.intro")}</p>
      <h2>{t("external.webinar.bookTitle")}</h2>
      <p>{t("external.webinar.book")}</p>
      <h2>{t("external.webinar.meanwhileTitle")}</h2>
      <p>
        <Trans t={t} i18nKey="external.webinar.meanwhile" components={{ workflow: <Link to="/workflow" />, help: <Link to="/help-center" /> }} />
      </p>
    </section>
  );
}
