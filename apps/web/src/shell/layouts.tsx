import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Outlet } from "react-router-dom";
import { isMobileBrowser } from "../config.ts";
import { loadPublicConfig } from "../api/publicConfig.ts";
import { AppLinks, useHasAppLinks } from "./AppLinks.tsx";
import { Logo } from "../ui/Brand.tsx";
import { Footer } from "./Footer.tsx";
import { PageSpinner } from "../ui/Loader.tsx";

const VisitorChat = lazy(() => import("../chat/VisitorChat.tsx"));

// Asked for at start, beside the route's chunk, so the store badges are known when the page paints.
loadPublicConfig().catch(() => undefined);

/** Signed-out screens: a calm brand panel beside the form card. */
export function PublicLayout() {
  const { t } = useTranslation();
  const hasAppLinks = useHasAppLinks();
  return (
    <div className="public-shell">
      <aside className="brand-panel">
        <Logo />
        <div className="brand-copy">
          <h2>{t("layout.tagline")}</h2>
          <p>{t("layout.intro")}</p>
        </div>
      </aside>
      <main className="public-main" id="main">
        {isMobileBrowser() && hasAppLinks ? (
          <div className="mobile-app-banner">
            <span>{t("layout.appBanner")}</span>
            <AppLinks compact />
          </div>
        ) : null}
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
        <Footer />
      </main>
      <Suspense fallback={null}>
        <VisitorChat />
      </Suspense>
    </div>
  );
}


export { Card } from "../ui/Card.tsx";
