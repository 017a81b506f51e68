import { type ReactNode, Suspense } from "react";
import { Outlet } from "react-router-dom";
import { isMobileBrowser } from "../config.ts";
import { AppLinks } from "./AppLinks.tsx";
import { Logo } from "./Brand.tsx";
import { Footer } from "./Footer.tsx";
import { AppHeader } from "./Header.tsx";
import { PageSpinner } from "./Loader.tsx";

/** Signed-out screens: a calm brand panel beside the form card. */
export function PublicLayout() {
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
        {isMobileBrowser() ? (
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
    </div>
  );
}

/** Signed-in screens with header and footer. */
export function AppLayout() {
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppHeader />
      <main className="app-main" id="main">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}

/** Onboarding and BAA: footer only, no header. */
export function FooterOnlyLayout() {
  return (
    <div className="app-shell footer-only">
      <div className="bare-top">
        <Logo to="/" />
      </div>
      <main className="app-main narrow" id="main">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}

export function Card({ title, children, subtitle, wide }: { title: string; subtitle?: ReactNode; children: ReactNode; wide?: boolean }) {
  return (
    <section className={`card${wide ? " card-wide" : ""}`} aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      {subtitle ? <p className="card-subtitle">{subtitle}</p> : null}
      {children}
    </section>
  );
}
