import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { Link } from "react-router-dom";
import { messageOf } from "../../api/client.ts";
import { reminders as fetchReminders, reportList, rowsOf } from "../../api/dashboard.ts";
import type { RecentReport, Reminder } from "../../api/types.ts";
import type { Session } from "../../machines/session.ts";
import { practiceBeingVerified } from "../../session/home.ts";
import { selectedBaby, useSession } from "../../session/store.ts";
import { FormMessage } from "../../ui/fields.tsx";
import { PageSpinner } from "../../ui/Loader.tsx";
import { DisclaimerDialog } from "./Disclaimer.tsx";
import { PracticeBeingVerifiedDashboard } from "./PracticeBeingVerified.tsx";

export const PARENT_UPLOADS = 3;
export const PHYSICIAN_PAGE = 5;

export const formatDate = (iso?: string) => {
  if (!iso) return "";
  const d = new Date(iso.length === 10 ? `${iso}T00:00:00` : iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString("en-US", { month: "2-digit", day: "2-digit", year: "numeric" });
};

const greeting = () => {
  const h = new Date().getHours();
  return h < 12 ? "Good morning" : h < 18 ? "Good afternoon" : "Good evening";
};

const attachmentCount = (r: RecentReport) => (typeof r.attachments === "number" ? r.attachments : Array.isArray(r.attachments) ? r.attachments.length : 0);

function ParentDashboard({ session }: { session: Session }) {
  const baby = selectedBaby(session);
  const [reminders, setReminders] = useState<ReadonlyArray<Reminder> | null>(null);
  const [uploads, setUploads] = useState<ReadonlyArray<RecentReport> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetchReminders()
      .then((r) => setReminders(rowsOf(r.results)))
      .catch(() => setReminders([]));
  }, []);
  useEffect(() => {
    setUploads(null);
    if (!baby) {
      setUploads([]);
      return;
    }
    reportList({ baby_identifier: baby.identifier, per_page: PARENT_UPLOADS })
      .then((r) => setUploads(rowsOf(r.results).slice(0, PARENT_UPLOADS)))
      .catch((e) => {
        setUploads([]);
        setError(messageOf(e));
      });
  }, [baby?.identifier]);
  return (
    <>
      <div className="page-head">
        <h1>
          {greeting()}, {session.firstName}
        </h1>
        <p className="lead">
          Upload {baby ? `${baby.first_name ?? baby.name}'s` : "your baby's"} head pictures every month until month 7, and ask your physician
          about at-home exercises.
        </p>
        <div className="page-actions">
          <Link className="btn btn-primary" to="/select-cap-mode">
            Start this month's scan
          </Link>
          <Link className="btn btn-secondary" to="/uploads">
            My Uploads
          </Link>
        </div>
      </div>
      <div className="dash-grid">
        <section className="panel" aria-labelledby="reminders-title">
          <h2 id="reminders-title">Reminders</h2>
          {reminders === null ? (
            <PageSpinner />
          ) : reminders.length === 0 ? (
            <p className="muted">No reminders right now. We will remind you when the next monthly scan is due.</p>
          ) : (
            <ul className="plain-list">
              {reminders.map((r, i) => (
                <li key={i}>
                  <strong>{"baby_name" in r ? r.baby_name : "Reminder"}</strong>
                  <span>{r.text}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="panel" aria-labelledby="uploads-title">
          <h2 id="uploads-title">Recent uploads</h2>
          {error ? <FormMessage tone="error">{error}</FormMessage> : null}
          {uploads === null ? (
            <PageSpinner />
          ) : uploads.length === 0 ? (
            <p className="empty">No uploads found</p>
          ) : (
            <ul className="plain-list">
              {uploads.map((u, i) => (
                <li key={u.identifier ?? i} className="row-between">
                  <span>
                    <strong>{u.baby_name}</strong> <span className="muted">{formatDate(u.upload_date ?? u.uploaded_date)}</span>
                  </span>
                  <span className="pill">
                    {attachmentCount(u)} attachment{attachmentCount(u) === 1 ? "" : "s"}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}

function ProviderDashboard({ session }: { session: Session }) {
  const staff = session.userRole === "physician_staff";
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<ReadonlyArray<RecentReport> | null>(null);
  const [lastPage, setLastPage] = useState(1);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (staff && !session.activePhysicianId) return;
    setRows(null);
    setError(null);
    const body: Record<string, unknown> = { per_page: PHYSICIAN_PAGE, type: "new" };
    if (staff) Object.assign(body, { results_for_staff: true, physician_id: session.activePhysicianId });
    reportList(body, page)
      .then((r) => {
        setRows(rowsOf(r.results).slice(0, PHYSICIAN_PAGE));
        const res = r.results as { last_page?: number };
        setLastPage(Math.max(1, res && !Array.isArray(res) ? Number(res.last_page ?? 1) : 1));
      })
      .catch((e) => {
        setRows([]);
        setError(messageOf(e));
      });
  }, [page, staff, session.activePhysicianId]);
  const resultsPath = staff ? "/staff-results" : "/results";
  return (
    <>
      <div className="page-head">
        <h1>
          {greeting()}, {staff ? session.firstName : `Dr. ${session.lastName}`}
        </h1>
        <p className="lead">Scan every infant aged 0-7 months monthly, per pediatric guidance. Reports are ready within one business day.</p>
      </div>
      <section className="panel" aria-labelledby="reports-title">
        <div className="row-between">
          <h2 id="reports-title">Recent reports</h2>
          <Link to={resultsPath}>View All</Link>
        </div>
        {error ? <FormMessage tone="error">{error}</FormMessage> : null}
        {rows === null ? (
          <PageSpinner />
        ) : rows.length === 0 ? (
          <p className="empty">No reports found</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Baby name</th>
                  <th scope="col">Upload date</th>
                  <th scope="col">Parent name</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={r.identifier ?? i}>
                    <td>{r.baby_name}</td>
                    <td>{formatDate(r.upload_date ?? r.uploaded_date)}</td>
                    <td>{r.parent_name ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {lastPage > 1 ? (
          <nav className="pager" aria-label="Recent reports pages">
            <Button className="btn btn-secondary" isDisabled={page <= 1} onPress={() => setPage(page - 1)}>
              Previous
            </Button>
            <span>
              Page {page} of {lastPage}
            </span>
            <Button className="btn btn-secondary" isDisabled={page >= lastPage} onPress={() => setPage(page + 1)}>
              Next
            </Button>
          </nav>
        ) : null}
      </section>
    </>
  );
}

export default function Dashboard() {
  const session = useSession();
  if (!session) return null;
  const provider = session.userRole === "physician" || session.userRole === "physician_staff";
  const showDisclaimer = session.isFirstLogin && !session.disclaimerAccepted;
  return (
    <div className="page">
      {session.isQuizTime && !showDisclaimer ? (
        <div className="banner" role="status">
          A short quiz is due before your next scan. <Link to="/quiz-instructions">Take the quiz</Link>
        </div>
      ) : null}
      {practiceBeingVerified(session) ? (
        <PracticeBeingVerifiedDashboard session={session} title={`${greeting()}, Dr. ${session.lastName}`} />
      ) : provider ? (
        <ProviderDashboard session={session} />
      ) : (
        <ParentDashboard session={session} />
      )}
      <DisclaimerDialog isOpen={showDisclaimer} />
    </div>
  );
}
