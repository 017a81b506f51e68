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
import { ListTable } from "../ui/ListTable.tsx";
import { ModelSwitches } from "./ModelSwitches.tsx";

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
  const [loads, setLoads] = useState(0);
  useEffect(() => {
    crown.call((api) => api.admin.model.$get())
      .then((r) => setPage(r.results))
      .catch((e) => setError(messageOf(e)));
  }, [loads]);
  const shadow = page?.shadow ?? null;
  return (
    <ConsoleSection name="model" id="model" title={t("model.title")}>
      <p className="muted">{t("model.about")}</p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {!page && !error ? <PageSpinner /> : null}
      {page ? (
        <>
          <p>{page.models.length ? page.models.map((m) => t("model.measuredBy", { name: m.name ?? "—", version: m.version ?? "", photos: m.photos })).join("; ") : t("model.empty")}</p>
          {shadow ? (
            <section aria-labelledby="model-shadow">
              <h3 id="model-shadow">{t("model.shadowTitle", { name: shadow.name, version: shadow.version })}</h3>
              <p className="muted">{t("model.shadowAbout", { measured: shadow.measured, ms: shadow.mean_ms ?? "—" })}</p>
              {(["recent", "total"] as const).map((when) => (
                <div className="model-columns" key={when}>
                  <section aria-labelledby={`model-shadow-${when}-shipped`}>
                    <h4 id={`model-shadow-${when}-shipped`}>
                      {t("model.shippedColumn")}: {when === "recent" ? t("model.recent", { days: page.recent_days }) : t("model.total")}
                    </h4>
                    <FiguresList f={shadow[when].shipped} />
                  </section>
                  <section aria-labelledby={`model-shadow-${when}-shadow`}>
                    <h4 id={`model-shadow-${when}-shadow`}>
                      {t("model.shadowColumn")}: {when === "recent" ? t("model.recent", { days: page.recent_days }) : t("model.total")}
                    </h4>
                    <FiguresList f={shadow[when].shadow} />
                  </section>
                </div>
              ))}
            </section>
          ) : null}
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
          <ListTable
            rows={page.total.per_reason}
            empty={t("model.noReasons")}
            caption={t("model.perReason")}
            captionShown
            rowKey={(r) => r.reason}
            columns={[
              { header: t("model.reason"), cell: (r) => uiMessage(r.reason) },
              { header: t("model.rejectedFor"), cell: (r) => r.n },
              { header: t("model.notAccepted"), cell: (r) => r.not_accepted },
              { header: t("model.named"), cell: (r) => r.named },
            ]}
          />
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
          {/* What the admin does about it (install, promote, roll back) comes after what the figures say. */}
          <ModelSwitches page={page} onChanged={() => setLoads((n) => n + 1)} />
        </>
      ) : null}
    </ConsoleSection>
  );
}
