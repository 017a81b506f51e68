import i18next from "i18next";
import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { useTranslation } from "react-i18next";
import { awaitsResult } from "@crown/core/report/lifecycle";
import { messageOf } from "../api/crown.ts";
import { usePagedRows } from "../api/usePagedRows.ts";
import { day, timeOfDay } from "../i18n/dates.ts";
import { useSession } from "../session/store.ts";
import { ListTable } from "../ui/ListTable.tsx";
import { toast } from "../ui/toasts.tsx";
import { ResearchConsentPrompt } from "../learning/ResearchConsent.tsx";
import { downloadReport, myUploads, parentResults, providerResults, type ResultFilter, type ResultItem, saveAndOpen } from "./api.ts";
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

/**
 * When each row was uploaded: its day, and its time as well where another result of the same child on the
 * page has the same day, so that two reports of one day can be told apart (issue 46); two still alike (the
 * same minute) are numbered in upload order, "(1 of 2)".
 */
export const uploadedWhen = (rows: ReadonlyArray<Pick<ResultItem, "identifier" | "baby_name" | "uploaded_date">>, nth: (n: number, count: number) => string) => {
  const count = (key: (r: (typeof rows)[number]) => string) => {
    const groups = new Map<string, Array<(typeof rows)[number]>>();
    for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
    return groups;
  };
  const days = count((r) => `${r.baby_name}\u0000${day(r.uploaded_date)}`);
  const label = (r: (typeof rows)[number]) =>
    (days.get(`${r.baby_name}\u0000${day(r.uploaded_date)}`)?.length ?? 0) > 1 ? `${day(r.uploaded_date)} ${timeOfDay(r.uploaded_date)}` : day(r.uploaded_date);
  const alike = count((r) => `${r.baby_name}\u0000${label(r)}`);
  return new Map(
    rows.map((r) => {
      const same = [...(alike.get(`${r.baby_name}\u0000${label(r)}`) ?? [])].sort((a, b) => a.uploaded_date.localeCompare(b.uploaded_date) || a.identifier.localeCompare(b.identifier));
      return [r.identifier, same.length > 1 ? `${label(r)} ${nth(same.indexOf(r) + 1, same.length)}` : label(r)] as const;
    }),
  );
};

/** How many of the parent's uploads wait for their result (analysis or review), over all their children. */
const uploadsInReview = async (babyIds: ReadonlyArray<string>): Promise<number> => {
  const pages = await Promise.all(babyIds.map((id) => myUploads(1, id, 10).catch(() => null)));
  return pages.reduce((n, page) => n + (page?.results.data.filter((u) => u.status !== null && u.status !== undefined && awaitsResult(u.status)).length ?? 0), 0);
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
  // A parent with nothing published yet: are uploads waiting for review? (Then say so, not "contact your provider".)
  const [inReview, setInReview] = useState<number | null>(null);
  const babyIds = parent ? (session?.babies ?? []).map((b) => b.identifier).join(",") : "";
  useEffect(() => {
    if (!parent || rows === null || rows.length > 0 || search !== "") return;
    let live = true;
    void uploadsInReview(babyIds.split(",").filter(Boolean)).then((n) => live && setInReview(n));
    return () => {
      live = false;
    };
  }, [parent, rows, search, babyIds]);

  const onDownload = async (row: ResultItem) => {
    if ((await download(row, parent)) && !parent) setRows((list) => list?.map((r) => (r.identifier === row.identifier ? { ...r, read: true } : r)) ?? null);
  };

  const when = uploadedWhen(rows ?? [], (n, count) => t("results.nthOfDay", { n, count }));
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
      {parent && rows !== null && rows.length > 0 ? <p className="muted small fhir-note">{t("fhir.parentNote")}</p> : null}
      <ListTable
        rows={rows}
        error={error}
        empty={!parent || search !== "" ? t("results.none") : inReview ? t("results.parentInReview", { count: inReview }) : t("results.parentEmpty")}
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
          // "Uploaded on" once, in the header (and as the label of a phone's card).
          { header: t("results.uploadedOn"), cell: (r) => when.get(r.identifier) },
          {
            header: t("results.download"),
            headerHidden: true,
            className: "cell-action",
            cell: (r) => (
              <>
                <Button className="btn btn-ghost btn-sm download-btn" aria-label={t("results.downloadOf", { name: r.baby_name, date: when.get(r.identifier) })} onPress={() => void onDownload(r)}>
                  <DownloadIcon /> {t("results.downloadPdf")}
                </Button>
                <FhirExportButton row={r} parent={parent} when={when.get(r.identifier) ?? day(r.uploaded_date)} />
              </>
            ),
          },
        ]}
        pager={{ page, lastPage, onPage: setPage, label: t("results.pages") }}
      />
    </section>
  );
}
