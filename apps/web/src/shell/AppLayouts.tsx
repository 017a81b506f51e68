import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Outlet } from "react-router-dom";
import { Logo } from "../ui/Brand.tsx";
import { Footer } from "./Footer.tsx";
import { AppHeader } from "./Header.tsx";
import { PageSpinner } from "../ui/Loader.tsx";

const ChatWidget = lazy(() => import("../chat/ChatWidget.tsx"));

/** What every signed-in layout ends with: the page, the footer and the support chat. */
function PageFooterAndChat({ narrow = false }: { narrow?: boolean }) {
  return (
    <>
      <main className={narrow ? "app-main narrow" : "app-main"} id="main">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <Suspense fallback={null}>
        <ChatWidget />
      </Suspense>
    </>
  );
}

/** Signed-in screens with header and footer. */
export default function AppLayout() {
  const { t } = useTranslation("app");
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {t("skip")}
      </a>
      <AppHeader />
      <PageFooterAndChat />
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
      <PageFooterAndChat narrow />
    </div>
  );
}
