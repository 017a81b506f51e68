import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { messageOf } from "../api/crown.ts";
import { day } from "../i18n/dates.ts";
import { Pager } from "../ui/lists.tsx";
import { useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { type QueueItem, reviewQueue } from "./api.ts";
import { fig, one, statusName } from "./ReviewFigures.tsx";
import { usePagedRows } from "./usePagedRows.ts";

export function NotReviewer() {
  const { t } = useTranslation("review");
  return <FormMessage tone="error">{t("notReviewer")}</FormMessage>;
}

/** /review: reports waiting for review, oldest first. */
export function ReviewQueue() {
  const { t } = useTranslation("review");
  const session = useSession();
  const { page, setPage, rows, lastPage, failure } = usePagedRows<QueueItem>(session?.userRole === "reviewer" ? reviewQueue : null);
  const error = failure ? messageOf(failure) : null;
  if (session?.userRole !== "reviewer") return <NotReviewer />;
  return (
    <section className="panel" aria-labelledby="page-title">
      <h1 id="page-title">{t("queue.title")}</h1>
      <p className="card-subtitle">{t("queue.subtitle")}</p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">{t("queue.empty")}</p>
      ) : (
        <div className="table-wrap">
          <table className="table table-stack">
            <thead>
              <tr>
                <th scope="col">{t("queue.columns.baby")}</th>
                <th scope="col">{t("queue.columns.age")}</th>
                <th scope="col">{t("queue.columns.submitted")}</th>
                <th scope="col">{t("queue.columns.status")}</th>
                <th scope="col">{t("queue.columns.ci")}</th>
                <th scope="col">{t("queue.columns.cvai")}</th>
                <th scope="col">{t("queue.columns.previous")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.report_identifier}>
                  <td>
                    <Link to={`/review/${r.report_identifier}`}>{r.baby_name}</Link>
                  </td>
                  <td data-label={t("queue.columns.age")}>{r.baby_age ?? ""}</td>
                  <td data-label={t("queue.columns.submitted")}>{day(r.submitted_at)}</td>
                  <td data-label={t("queue.columns.status")}>{statusName(t, r.status)}</td>
                  <td data-label={t("queue.columns.ci")}>{fig(r.summary?.ci)}</td>
                  <td data-label={t("queue.columns.cvai")}>{fig(r.summary?.cvai)}</td>
                  <td data-label={t("queue.columns.previous")}>
                    {r.previous_results.length ? r.previous_results.map((p) => t("queue.previousResult", { date: day(p.captured_at), ci: one(p.ci), cvai: one(p.cvai) })).join("; ") : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} lastPage={lastPage} onPage={setPage} label={t("queue.pages")} />
    </section>
  );
}
