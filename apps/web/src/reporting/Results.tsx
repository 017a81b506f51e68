import i18next from "i18next";
import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { messageOf } from "../api/crown.ts";
import { day } from "../i18n/dates.ts";
import { useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { toast } from "../ui/toasts.tsx";
import { ResearchConsentPrompt } from "../learning/ResearchConsent.tsx";
import { downloadReport, parentResults, providerResults, type ResultFilter, type ResultItem, saveAndOpen } from "./api.ts";
import { DownloadIcon, PAGE_SIZE, padRows, Pager, SearchBox } from "../ui/lists.tsx";
import { FhirExportButton } from "./FhirExport.tsx";

/** The filters and their words (`reporting:results.<key>`). */
const FILTERS: ReadonlyArray<{ value: ResultFilter; key: "all" | "unread" | "reviewed" }> = [
  { value: "all", key: "all" },
  { value: "new", key: "unread" },
  { value: "reviewed", key: "reviewed" },
];

/** Downloads Result.pdf and opens it after 1 second; the server's message on failure. */
export const download = async (row: ResultItem, parent: boolean): Promise<boolean> => {
  try {
    const blob = await downloadReport(row.identifier, parent);
    saveAndOpen(blob, "Result.pdf");
    toast(i18next.t("reporting:results.downloaded"), "success");
    return true;
  } catch (e) {
    toast(messageOf(e), "error");
    return false;
  }
};

/** /results and /staff-results (providers and staff), /parent-results (parents, no filter). */
export default function Results({ parent = false }: { parent?: boolean }) {
  const { t } = useTranslation("reporting");
  const session = useSession();
  const staff = session?.userRole === "physician_staff";
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<ResultFilter>("all");
  const [rows, setRows] = useState<ReadonlyArray<ResultItem> | null>(null);
  const [lastPage, setLastPage] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const physicianId = session?.activePhysicianId ?? null;

  useEffect(() => {
    if (staff && !physicianId) return;
    let live = true;
    setRows(null);
    setError(null);
    const call = parent
      ? parentResults(page, { per_page: PAGE_SIZE, search })
      : providerResults(page, { per_page: PAGE_SIZE, search, type: filter, ...(staff && physicianId ? { results_for_staff: true, physician_id: physicianId } : {}) });
    call
      .then((r) => {
        if (!live) return;
        setRows(r.results.data);
        setLastPage(Math.max(1, r.results.last_page));
      })
      .catch((e) => {
        if (!live) return;
        setRows([]);
        setError(messageOf(e));
        toast(messageOf(e), "error");
      });
    return () => {
      live = false;
    };
  }, [page, search, filter, physicianId, parent, staff]);

  const onDownload = async (row: ResultItem) => {
    if ((await download(row, parent)) && !parent) setRows((list) => list?.map((r) => (r.identifier === row.identifier ? { ...r, read: true } : r)) ?? null);
  };

  return (
    <section className="panel results-page" aria-labelledby="page-title">
      <div className="list-head">
        <div>
          <h1 id="page-title">{t("results.title")}</h1>
          <p className="card-subtitle">{t("results.subtitle")}</p>
        </div>
        <SearchBox
          label={t("results.search")}
          placeholder={t("results.search")}
          onSearch={(q) => {
            setSearch(q);
            setPage(1);
          }}
        />
      </div>
      {/* Asked once, after a child's first published report (issue 41). */}
      {parent ? <ResearchConsentPrompt /> : null}
      {!parent ? (
        <fieldset className="filters">
          <legend className="sr-only">{t("results.show")}</legend>
          {FILTERS.map((f) => (
            <label key={f.value} className="filter-check">
              <input
                type="checkbox"
                checked={filter === f.value}
                onChange={() => {
                  setFilter(f.value);
                  setPage(1);
                }}
              />
              {t(`results.${f.key}`)}
            </label>
          ))}
        </fieldset>
      ) : null}
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">{parent ? t("results.parentEmpty") : t("results.none")}</p>
      ) : (
        <div className="table-wrap">
          <table className="table results-table table-stack">
            <caption className="sr-only">{t("results.caption", { page })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("results.child")}</th>
                <th scope="col">{t("results.uploadedOn")}</th>
                <th scope="col">
                  <span className="sr-only">{t("results.download")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {padRows(rows).map((r, i) =>
                r ? (
                  <tr key={r.identifier} className={!parent && !r.read ? "unread" : ""}>
                    <td>
                      {r.baby_name}
                      {!parent && !r.read ? <span className="sr-only"> {t("results.isUnread")}</span> : null}
                    </td>
                    <td>{t("results.uploadedOnDate", { date: day(r.uploaded_date) })}</td>
                    <td className="cell-action" data-label={t("results.download")}>
                      <Button className="icon-btn" aria-label={t("results.downloadOf", { name: r.baby_name, date: day(r.uploaded_date) })} onPress={() => void onDownload(r)}>
                        <DownloadIcon />
                      </Button>
                      <FhirExportButton row={r} />
                    </td>
                  </tr>
                ) : (
                  <tr key={`pad-${i}`} className="pad-row" aria-hidden="true">
                    <td colSpan={3}>{"\u00a0"}</td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} lastPage={lastPage} onPage={setPage} label={t("results.pages")} />
    </section>
  );
}
