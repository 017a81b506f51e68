import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { ReportStatus } from "@crown/core/report/lifecycle";
import { number } from "../i18n/dates.ts";
import type { Figure, Summary } from "./api.ts";

/** A figure with one decimal in the portal's language (a range's ends are there whenever its median is). */
export const one = (value: number | null | undefined) => (value === null || value === undefined ? "—" : number(value, 1));

export const fig = (f: Figure | null | undefined) => (f && f.median !== null ? `${one(f.median)} (${one(f.min)}–${one(f.max)}, n=${f.count})` : "—");

/** A report's status as the review console names it ("in review" in English; the catalogue's for each status). */
export const statusName = (t: TFunction<"review">, status: ReportStatus): string => t(`status.${status}`, { defaultValue: status.replace(/_/g, " ") });

/**
 * The report's figures, and the flag when its photos disagree beyond measurement error (issue 22,
 * item 11): the server refuses to publish until each counted photo is accepted or rejected.
 */
export function ReviewFigures({ summary }: { summary: Summary | null }) {
  const { t } = useTranslation("review");
  const unconfirmed = summary?.unconfirmed ?? 0;
  return (
    <>
      <dl className="summary-grid">
        <div>
          <dt>{t("figures.ci")}</dt>
          <dd>{fig(summary?.ci)}</dd>
        </div>
        <div>
          <dt>{t("figures.cvai")}</dt>
          <dd>{fig(summary?.cvai)}</dd>
        </div>
        <div>
          <dt>{t("figures.cvaMm")}</dt>
          <dd>{fig(summary?.cva_mm)}</dd>
        </div>
        <div>
          <dt>{t("figures.accepted")}</dt>
          <dd>{summary?.accepted ?? 0}</dd>
        </div>
      </dl>
      {summary?.photos_disagree ? (
        <div className="form-message agreement-flag" role="status">
          <strong>{t("figures.disagree")}</strong>
          <ul>
            {(summary.agreement ?? [])
              .filter((a) => a.disagree)
              .map((a) => (
                <li key={a.index}>{a.text}.</li>
              ))}
          </ul>
          <p>
            {unconfirmed > 0 ? t("figures.toConfirm", { count: unconfirmed }) : t("figures.allConfirmed")}
          </p>
        </div>
      ) : null}
    </>
  );
}
