import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { day } from "../i18n/dates.ts";
import { useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";
import { ListTable } from "../ui/ListTable.tsx";
import { type QueueItem, reviewQueue } from "./api.ts";
import { fig, one, statusName } from "./ReviewFigures.tsx";
import { usePagedRows } from "../api/usePagedRows.ts";

export function NotReviewer() {
  const { t } = useTranslation("review");
  return <FormMessage tone="error">{t("notReviewer")}</FormMessage>;
}

/** /review: reports waiting for review, oldest first. */
export function ReviewQueue() {
  const { t } = useTranslation("review");
  const session = useSession();
  const { page, setPage, rows, lastPage, error } = usePagedRows<QueueItem>(session?.userRole === "reviewer" ? reviewQueue : null);
  if (session?.userRole !== "reviewer") return <NotReviewer />;
  return (
    <section className="panel" aria-labelledby="page-title">
      <h1 id="page-title">{t("queue.title")}</h1>
      <p className="card-subtitle">{t("queue.subtitle")}</p>
      <ListTable
        rows={rows}
        error={error}
        empty={t("queue.empty")}
        rowKey={(r) => r.report_identifier}
        columns={[
          { header: t("queue.columns.baby"), cell: (r) => <Link to={`/review/${r.report_identifier}`}>{r.baby_name}</Link> },
          { header: t("queue.columns.age"), cell: (r) => r.baby_age ?? "" },
          { header: t("queue.columns.submitted"), cell: (r) => day(r.submitted_at) },
          { header: t("queue.columns.status"), cell: (r) => statusName(t, r.status) },
          { header: t("queue.columns.ci"), cell: (r) => fig(r.summary?.ci) },
          { header: t("queue.columns.cvai"), cell: (r) => fig(r.summary?.cvai) },
          {
            header: t("queue.columns.previous"),
            cell: (r) => (r.previous_results.length ? r.previous_results.map((p) => t("queue.previousResult", { date: day(p.captured_at), ci: one(p.ci), cvai: one(p.cvai) })).join("; ") : "—"),
          },
        ]}
        pager={{ page, lastPage, onPage: setPage, label: t("queue.pages") }}
      />
    </section>
  );
}
