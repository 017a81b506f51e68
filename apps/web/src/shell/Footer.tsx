import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { isMobileBrowser } from "../config.ts";
import { AppLinks } from "./AppLinks.tsx";

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      {isMobileBrowser() ? <AppLinks compact /> : null}
      <nav aria-label={t("footer.legal")} className="footer-links">
        <Link to="/privacy-policy">{t("footer.privacy")}</Link>
        <Link to="/terms-of-service">{t("footer.terms")}</Link>
      </nav>
      <p className="footer-note">{t("footer.note", { year: String(new Date().getFullYear()) })}</p>
    </footer>
  );
}
