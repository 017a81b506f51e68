import { LOCALES } from "@crown/core/shared/dates";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { currentLanguage } from "../../i18n/language.ts";

/** The revision day as the document writes it: "November 22, 2026", "22 de noviembre de 2026". */
const revision = (isoDay: string) =>
  new Intl.DateTimeFormat(LOCALES[currentLanguage()], { year: "numeric", month: "long", day: "numeric" }).format(new Date(`${isoDay}T00:00:00`));

/** A legal document's page; `updated` is the day (YYYY-MM-DD) its text last changed. */
export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  const { t } = useTranslation("legal");
  return (
    <article className="card card-wide legal" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      <p className="muted small">{t("page.updated", { date: revision(updated) })}</p>
      {children}
      <p className="center">
        <Link to="/">{t("page.back")}</Link>
      </p>
    </article>
  );
}
