import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Outlet } from "react-router-dom";
import { Logo } from "../ui/Brand.tsx";
import { Footer } from "./Footer.tsx";
import { AppHeader } from "./Header.tsx";
import { PageSpinner } from "../ui/Loader.tsx";

const ChatWidget = lazy(() => import("../chat/ChatWidget.tsx"));

/** Signed-in screens with header and footer. */
export default function AppLayout() {
  const { t } = useTranslation("app");
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {t("skip")}
      </a>
      <AppHeader />
      <main className="app-main" id="main">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <Suspense fallback={null}>
        <ChatWidget />
      </Suspense>
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
      <Suspense fallback={null}>
        <ChatWidget />
      </Suspense>
    </div>
  );
}

