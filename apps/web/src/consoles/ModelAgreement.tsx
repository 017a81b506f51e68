import { useEffect, useState } from "react";
import { ConsoleSection } from "./ConsoleSection.tsx";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { crown, messageOf } from "../api/crown.ts";
import type { Api, ResultsOf } from "../api/wire.ts";
import { day, number } from "../i18n/dates.ts";
import { uiMessage } from "../i18n/i18n.ts";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";

type ModelPage = ResultsOf<Api["admin"]["model"]["$get"]>;
type Figures = ModelPage["total"];

const pct = (x: number | null) => (x === null ? "—" : `${number(100 * x, 1)} %`);
const two = (x: number | null) => (x === null ? "—" : number(x, 2));

/** One column of figures: the model's verdicts against the reviewers', the figures' error, the share off by more than 3. */
function FiguresList({ f }: { f: Figures }) {
  const { t } = useTranslation("admin");
  return (
    <dl className="model-figures">
      <dt>{t("model.photos")}</dt>
      <dd>{t("model.reviewerSplit", { photos: f.photos, accepted: f.reviewer.accepted, rejected: f.reviewer.rejected })}</dd>
      {f.verdicts.map((v) => (
        <div key={v.verdict}>
          <dt>{t(`model.verdict.${v.verdict}`)}</dt>
          <dd>{t("model.verdictSplit", { accepted: v.reviewer_accepted, rejected: v.reviewer_rejected })}</dd>
        </div>
      ))}
      <dt>{t("model.acceptance")}</dt>
      <dd>{pct(f.acceptance)}</dd>
      <dt>{t("model.caught")}</dt>
      <dd>{pct(f.caught)}</dd>
      <dt>{t("model.mae", { n: f.figures.n })}</dt>
      <dd>{t("model.maeValues", { ci: two(f.figures.ci_mae), cvai: two(f.figures.cvai_mae) })}</dd>
      <dt>{t("model.off", { by: f.figures.off_by_more_than })}</dt>
      <dd>{pct(f.figures.off_share)}</dd>
    </dl>
  );
}

/**
 * The admin's "Model" section (issue 41): the shipped model against the reviewers on the reviewed set,
 * over the last 30 days and in total, per reason, and the photos where they disagree most.
 */
export function ModelAgreement() {
  const { t } = useTranslation("admin");
  const [page, setPage] = useState<ModelPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    crown.call((api) => api.admin.model.$get())
      .then((r) => setPage(r.results))
      .catch((e) => setError(messageOf(e)));
  }, []);
  return (
    <ConsoleSection name="model" id="model" title={t("model.title")}>
      <p className="muted">{t("model.about")}</p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {!page && !error ? <PageSpinner /> : null}
      {page ? (
        <>
          <p>{page.models.length ? page.models.map((m) => t("model.measuredBy", { name: m.name ?? "—", version: m.version ?? "", photos: m.photos })).join("; ") : t("model.empty")}</p>
          <div className="model-columns">
            <section aria-labelledby="model-recent">
              <h3 id="model-recent">{t("model.recent", { days: page.recent_days })}</h3>
              <FiguresList f={page.recent} />
            </section>
            <section aria-labelledby="model-total">
              <h3 id="model-total">{t("model.total")}</h3>
              <FiguresList f={page.total} />
            </section>
          </div>
          <div className="table-wrap">
            <table className="table table-stack">
              <caption>{t("model.perReason")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("model.reason")}</th>
                  <th scope="col">{t("model.rejectedFor")}</th>
                  <th scope="col">{t("model.notAccepted")}</th>
                  <th scope="col">{t("model.named")}</th>
                </tr>
              </thead>
              <tbody>
                {page.total.per_reason.map((r) => (
                  <tr key={r.reason}>
                    <td data-label={t("model.reason")}>{uiMessage(r.reason)}</td>
                    <td data-label={t("model.rejectedFor")}>{r.n}</td>
                    <td data-label={t("model.notAccepted")}>{r.not_accepted}</td>
                    <td data-label={t("model.named")}>{r.named}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3>{t("model.worst")}</h3>
          {page.worst.length === 0 ? (
            <p className="empty">{t("model.noDisagreement")}</p>
          ) : (
            <ul className="model-worst">
              {page.worst.map((w) => (
                <li key={w.attachment_identifier}>
                  <Link to={`/review/${encodeURIComponent(w.report_identifier)}`}>{t("model.open", { date: day(w.reviewed_at) })}</Link>{" "}
                  {t("model.disagreement", {
                    model: w.model.verdict === "accept" ? t("model.verdict.accept") : t(`model.verdict.${w.model.verdict}`),
                    reviewer: w.reviewer.accepted ? t("model.reviewerAccepted") : t("model.reviewerRejected"),
                    modelCi: two(w.model.ci),
                    reviewerCi: two(w.reviewer.ci),
                    modelCvai: two(w.model.cvai),
                    reviewerCvai: two(w.reviewer.cvai),
                  })}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
    </ConsoleSection>
  );
}
