import { Link } from "react-router-dom";
import { messageOf } from "../api/client.ts";
import { formatUsDate } from "../reporting/api.ts";
import { Pager } from "../reporting/listing.tsx";
import { useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { type QueueItem, reviewQueue } from "./api.ts";
import { fig } from "./ReviewFigures.tsx";
import { usePagedRows } from "./usePagedRows.ts";

export function NotReviewer() {
  return <FormMessage tone="error">The review console is for Crown's reviewers.</FormMessage>;
}


/** /review: reports waiting for review, oldest first. */
export function ReviewQueue() {
  const session = useSession();
  const { page, setPage, rows, lastPage, failure } = usePagedRows<QueueItem>(session?.userRole === "reviewer" ? reviewQueue : null);
  const error = failure ? messageOf(failure) : null;
  if (session?.userRole !== "reviewer") return <NotReviewer />;
  return (
    <section className="panel" aria-labelledby="page-title">
      <h1 id="page-title">Review queue</h1>
      <p className="card-subtitle">Reports waiting for a reviewer, oldest first.</p>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">No reports are waiting for review.</p>
      ) : (
        <div className="table-wrap">
          <table className="table table-stack">
            <thead>
              <tr>
                <th scope="col">Baby</th>
                <th scope="col">Age</th>
                <th scope="col">Submitted</th>
                <th scope="col">Status</th>
                <th scope="col">CI</th>
                <th scope="col">CVAI</th>
                <th scope="col">Previous</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.report_identifier}>
                  <td>
                    <Link to={`/review/${r.report_identifier}`}>{r.baby_name}</Link>
                  </td>
                  <td data-label="Age">{r.baby_age ?? ""}</td>
                  <td data-label="Submitted">{formatUsDate(r.submitted_at)}</td>
                  <td data-label="Status">{r.status.replace(/_/g, " ")}</td>
                  <td data-label="CI">{fig(r.summary?.ci)}</td>
                  <td data-label="CVAI">{fig(r.summary?.cvai)}</td>
                  <td data-label="Previous">{r.previous_results.length ? r.previous_results.map((p) => `${formatUsDate(p.captured_at)}: CI ${p.ci ?? "—"}, CVAI ${p.cvai ?? "—"}`).join("; ") : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} lastPage={lastPage} onPage={setPage} label="Queue pages" />
    </section>
  );
}
