import { useCallback, useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { AVAILABLE_EXPORT, type DataExportStatus, exportInProgress } from "@crown/core/family-data/lifecycle";
import { dataExports, type DataExportRow, requestDataExport } from "../../api/familyData.ts";
import { messageOf } from "../../api/crown.ts";
import { moment } from "../../i18n/dates.ts";
import { FormMessage } from "../../ui/fields.tsx";
import { links } from "../../config.ts";
import { useProof } from "../../security/useProof.tsx";

/** How often the page asks for the progress while an archive is being prepared. */
const POLL_MS = 2000;

/**
 * Profile, My data (parents, issue 44): ask for an archive of everything Crown holds about you and
 * your children; its progress shows here and the download link arrives by e-mail (once, 24 hours,
 * after signing in). Deleting the account is the other right, on its own page.
 */
export function MyData() {
  const { t } = useTranslation("profile");
  const [rows, setRows] = useState<ReadonlyArray<DataExportRow> | null>(null);
  const [notice, setNotice] = useState<{ tone: "success" | "error" | "info"; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  // Exporting is a sensitive action: the password or a passkey again after ten minutes (i44a's rule).
  const { withProof, dialog } = useProof();

  const load = useCallback(async (quiet = false) => {
    try {
      setRows((await dataExports(quiet)).results);
    } catch (err) {
      setNotice({ tone: "error", text: messageOf(err) });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const preparing = rows?.some((r) => exportInProgress(r.status as DataExportStatus)) ?? false;
  useEffect(() => {
    if (!preparing) return;
    const timer = setInterval(() => void load(true), POLL_MS);
    return () => clearInterval(timer);
  }, [preparing, load]);

  const ask = async () => {
    setPending(true);
    setNotice(null);
    try {
      const { message } = await withProof(requestDataExport);
      setNotice({ tone: "success", text: message });
      await load();
    } catch (err) {
      setNotice({ tone: "error", text: messageOf(err) });
    } finally {
      setPending(false);
    }
  };

  return (
    <section aria-labelledby="data-title">
      <h2 id="data-title">{t("data.title")}</h2>
      {dialog}
      <p>{t("data.intro")}</p>
      <p className="muted">{t("data.link")}</p>
      {notice ? <FormMessage tone={notice.tone}>{notice.text}</FormMessage> : null}
      <div className="form-actions">
        <Button className="btn btn-primary" isPending={pending} isDisabled={preparing} onPress={() => void ask()}>
          {t("data.ask")}
        </Button>
      </div>
      {rows && rows.length > 0 ? (
        <ul className="export-list" aria-label={t("data.list")}>
          {rows.map((r) => (
            <li key={r.identifier}>
              <div>
                {t("data.asked", { when: moment(r.requested_at) })} · <strong>{t(`data.status.${r.status}`)}</strong>
              </div>
              {exportInProgress(r.status as DataExportStatus) ? (
                <div className="progress" role="progressbar" aria-label={t("data.progress")} aria-valuemin={0} aria-valuemax={Math.max(1, r.items_total)} aria-valuenow={r.items_done}>
                  <div className="progress-label">
                    <span>{t("data.progress")}</span>
                    <span>{r.items_total > 0 ? t("data.files", { done: r.items_done, total: r.items_total }) : t("data.starting")}</span>
                  </div>
                  <div className="progress-track">
                    <div className="progress-fill" style={{ width: `${r.items_total > 0 ? Math.round((100 * r.items_done) / r.items_total) : 0}%` }} />
                  </div>
                </div>
              ) : null}
              {r.status === AVAILABLE_EXPORT && r.expires_at ? <div className="muted">{t("data.mailed", { until: moment(r.expires_at) })}</div> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <h3>{t("data.deleteTitle")}</h3>
      <p>{t("data.deleteIntro")}</p>
      <p>
        <a href={links.removeAccount} target="_blank" rel="opener">
          {t("removeAccount")} <span className="sr-only">{t("newTab")}</span>
        </a>{" "}
        · <Link to="/privacy-policy">{t("data.privacy")}</Link>
      </p>
    </section>
  );
}
