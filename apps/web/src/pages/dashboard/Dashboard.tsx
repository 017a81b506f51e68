import { useEffect, useState } from "react";
import { type TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { messageOf } from "../../api/crown.ts";
import { reminders as fetchReminders, reportList, rowsOf } from "../../api/dashboard.ts";
import type { RecentReport, Reminder } from "../../api/types.ts";
import type { Session } from "../../session/machine.ts";
import { practiceBeingVerified } from "../../session/home.ts";
import { day } from "../../i18n/dates.ts";
import { selectedBaby, useSession } from "../../session/store.ts";
import { FormMessage } from "../../ui/fields.tsx";
import { PageSpinner } from "../../ui/Loader.tsx";
import { ListTable } from "../../ui/ListTable.tsx";
import { DisclaimerDialog } from "./Disclaimer.tsx";
import { PracticeBeingVerifiedDashboard } from "./PracticeBeingVerified.tsx";

export const PARENT_UPLOADS = 3;
export const PHYSICIAN_PAGE = 5;

/** A day in the portal's language (English MM/DD/YYYY); anything unreadable as given. */
export const formatDate = (iso?: string) => day(iso);

const greeting = (t: TFunction<"dashboard">) => {
  const h = new Date().getHours();
  return h < 12 ? t("greeting.morning") : h < 18 ? t("greeting.afternoon") : t("greeting.evening");
};

/** The parent's name; for a baby with no caregiver account linked yet, whom the practice named, or that there is none (issue 46). */
const parentCell = (t: TFunction<"dashboard">, r: RecentReport) =>
  r.parent_name ? r.parent_name : r.caregiver_email ? t("provider.caregiverNotLinked", { email: r.caregiver_email }) : <span className="muted">{t("provider.noCaregiver")}</span>;

const attachmentCount = (r: RecentReport) => (typeof r.attachments === "number" ? r.attachments : Array.isArray(r.attachments) ? r.attachments.length : 0);

function ParentDashboard({ session }: { session: Session }) {
  const { t } = useTranslation("dashboard");
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
        <h1>{t("greeting.hello", { greeting: greeting(t), name: session.firstName })}</h1>
        <p className="lead">{baby ? t("parent.leadBaby", { name: baby.first_name ?? baby.name }) : t("parent.lead")}</p>
        <div className="page-actions">
          <Link className="btn btn-primary" to="/select-cap-mode">
            {t("parent.startScan")}
          </Link>
          <Link className="btn btn-secondary" to="/uploads">
            {t("parent.myUploads")}
          </Link>
        </div>
      </div>
      <div className="dash-grid">
        <section className="panel" aria-labelledby="reminders-title">
          <h2 id="reminders-title">{t("parent.reminders")}</h2>
          {reminders === null ? (
            <PageSpinner />
          ) : reminders.length === 0 ? (
            <p className="muted">{t("parent.noReminders")}</p>
          ) : (
            <ul className="plain-list">
              {reminders.map((r, i) => (
                <li key={i}>
                  <strong>{"baby_name" in r ? r.baby_name : t("parent.reminder")}</strong>
                  <span>{r.text}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="panel" aria-labelledby="uploads-title">
          <h2 id="uploads-title">{t("parent.recentUploads")}</h2>
          {error ? <FormMessage tone="error">{error}</FormMessage> : null}
          {uploads === null ? (
            <PageSpinner />
          ) : uploads.length === 0 ? (
            <p className="empty">{t("parent.noUploads")}</p>
          ) : (
            <ul className="plain-list">
              {uploads.map((u, i) => (
                <li key={u.identifier ?? i} className="row-between">
                  <span>
                    <strong>{u.baby_name}</strong> <span className="muted">{formatDate(u.upload_date ?? u.uploaded_date)}</span>
                  </span>
                  <span className="pill">{t("parent.attachments", { count: attachmentCount(u) })}</span>
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
  const { t } = useTranslation("dashboard");
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
        <h1>{staff ? t("greeting.hello", { greeting: greeting(t), name: session.firstName }) : t("greeting.doctor", { greeting: greeting(t), name: session.lastName })}</h1>
        <p className="lead">{t("provider.lead")}</p>
      </div>
      <section className="panel" aria-labelledby="reports-title">
        <div className="row-between">
          <h2 id="reports-title">{t("provider.recentReports")}</h2>
          <Link to={resultsPath}>{t("provider.viewAll")}</Link>
        </div>
        {/* A narrow table of three short columns: it keeps its columns on a phone. */}
        <ListTable
          rows={rows}
          error={error}
          empty={t("provider.noReports")}
          stacked={false}
          rowKey={(r) => r.identifier}
          columns={[
            { header: t("provider.babyName"), cell: (r) => r.baby_name },
            { header: t("provider.uploadDate"), cell: (r) => formatDate(r.upload_date ?? r.uploaded_date) },
            { header: t("provider.parentName"), cell: (r) => parentCell(t, r) },
          ]}
          pager={{ page, lastPage, onPage: setPage, label: t("provider.pages") }}
        />
      </section>
    </>
  );
}

export default function Dashboard() {
  const { t } = useTranslation("dashboard");
  const session = useSession();
  if (!session) return null;
  const provider = session.userRole === "physician" || session.userRole === "physician_staff";
  const showDisclaimer = session.isFirstLogin && !session.disclaimerAccepted;
  return (
    <div className="page">
      {session.isQuizTime && !showDisclaimer ? (
        <div className="banner" role="status">
          {t("quizDue")} <Link to="/quiz-instructions">{t("takeQuiz")}</Link>
        </div>
      ) : null}
      {practiceBeingVerified(session) ? (
        <PracticeBeingVerifiedDashboard session={session} title={t("greeting.doctor", { greeting: greeting(t), name: session.lastName })} />
      ) : provider ? (
        <ProviderDashboard session={session} />
      ) : (
        <ParentDashboard session={session} />
      )}
      <DisclaimerDialog isOpen={showDisclaimer} />
    </div>
  );
}
