import { lazy, Suspense } from "react";
import { Outlet } from "react-router-dom";
import { isMobileBrowser } from "../config.ts";
import { loadPublicConfig } from "../api/publicConfig.ts";
import { AppLinks, useHasAppLinks } from "./AppLinks.tsx";
import { Logo } from "./Brand.tsx";
import { Footer } from "./Footer.tsx";
import { PageSpinner } from "./Loader.tsx";

const VisitorChat = lazy(() => import("../chat/VisitorChat.tsx"));

// Asked for at start, beside the route's chunk, so the store badges are known when the page paints.
loadPublicConfig().catch(() => undefined);

/** Signed-out screens: a calm brand panel beside the form card. */
export function PublicLayout() {
  const hasAppLinks = useHasAppLinks();
  return (
    <div className="public-shell">
      <aside className="brand-panel">
        <Logo />
        <div className="brand-copy">
          <h2>Head-shape screening, one photo a month.</h2>
          <p>Parents and pediatric providers track an infant's head shape from birth to 7 months. Reports are ready within one business day.</p>
        </div>
      </aside>
      <main className="public-main" id="main">
        {isMobileBrowser() && hasAppLinks ? (
          <div className="mobile-app-banner">
            <span>Crown works best in our app.</span>
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


export { Card } from "./Card.tsx";
