import i18next from "i18next";
import { useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { messageOf } from "../api/crown.ts";
import { usePagedRows } from "../api/usePagedRows.ts";
import { day } from "../i18n/dates.ts";
import { useSession } from "../session/store.ts";
import { ListTable } from "../ui/ListTable.tsx";
import { toast } from "../ui/toasts.tsx";
import { ResearchConsentPrompt } from "../learning/ResearchConsent.tsx";
import { downloadReport, parentResults, providerResults, type ResultFilter, type ResultItem, saveAndOpen } from "./api.ts";
import { DownloadIcon, PAGE_SIZE, SearchBox } from "../ui/lists.tsx";
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
  const [search, setSearch] = useState("");
  const [filter, setFilter] = useState<ResultFilter>("all");
  const physicianId = session?.activePhysicianId ?? null;
  // Staff read a physician's results: none until one is chosen.
  const { page, setPage, rows, setRows, lastPage, error } = usePagedRows<ResultItem>(
    staff && !physicianId
      ? null
      : (page) =>
          parent
            ? parentResults(page, { per_page: PAGE_SIZE, search })
            : providerResults(page, { per_page: PAGE_SIZE, search, type: filter, ...(staff && physicianId ? { results_for_staff: true, physician_id: physicianId } : {}) }),
    [search, filter, physicianId, parent, staff],
    { fresh: true, toastFailure: true },
  );

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
      <ListTable
        rows={rows}
        error={error}
        empty={parent ? t("results.parentEmpty") : t("results.none")}
        caption={t("results.caption", { page })}
        className="results-table"
        padTo={PAGE_SIZE}
        rowKey={(r) => r.identifier}
        rowClassName={(r) => (!parent && !r.read ? "unread" : undefined)}
        columns={[
          {
            header: t("results.child"),
            cell: (r) => (
              <>
                {r.baby_name}
                {!parent && !r.read ? <span className="sr-only"> {t("results.isUnread")}</span> : null}
              </>
            ),
          },
          // The cell says what it is ("Uploaded on 05/01/2026"): no label on a phone's card.
          { header: t("results.uploadedOn"), stackLabel: false, cell: (r) => t("results.uploadedOnDate", { date: day(r.uploaded_date) }) },
          {
            header: t("results.download"),
            headerHidden: true,
            className: "cell-action",
            cell: (r) => (
              <>
                <Button className="icon-btn" aria-label={t("results.downloadOf", { name: r.baby_name, date: day(r.uploaded_date) })} onPress={() => void onDownload(r)}>
                  <DownloadIcon />
                </Button>
                <FhirExportButton row={r} />
              </>
            ),
          },
        ]}
        pager={{ page, lastPage, onPage: setPage, label: t("results.pages") }}
      />
    </section>
  );
}
