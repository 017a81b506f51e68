import { useEffect, useState } from "react";
import { Button } from "react-aria-components";
import { messageOf } from "../api/client.ts";
import { useSession } from "../session/store.ts";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";
import { toast } from "../ui/toasts.tsx";
import { downloadReport, formatUsDate, parentResults, providerResults, type ResultFilter, type ResultItem, saveAndOpen } from "./api.ts";
import { DownloadIcon, PAGE_SIZE, padRows, Pager, SearchBox } from "./listing.tsx";
import { FhirExportButton } from "./FhirExport.tsx";

export const PARENT_EMPTY_TEXT =
  "Results are usually available within one business day after upload, and we will notify you by e-mail when they are ready. " +
  "If nothing appears here, the results were sent to your baby's provider: please contact your provider.";

const FILTERS: ReadonlyArray<{ value: ResultFilter; label: string }> = [
  { value: "all", label: "All" },
  { value: "new", label: "Unread" },
  { value: "reviewed", label: "Reviewed" },
];

/** Downloads Result.pdf and opens it after 1 second; the server's message on failure. */
export const download = async (row: ResultItem, parent: boolean): Promise<boolean> => {
  try {
    const blob = await downloadReport(row.identifier, parent);
    saveAndOpen(blob, "Result.pdf");
    toast("Report downloaded successfully", "success");
    return true;
  } catch (e) {
    toast(messageOf(e), "error");
    return false;
  }
};

/** /results and /staff-results (providers and staff), /parent-results (parents, no filter). */
export default function Results({ parent = false }: { parent?: boolean }) {
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
          <h1 id="page-title">Results</h1>
          <p className="card-subtitle">All the results are available here.</p>
        </div>
        <SearchBox
          label="Search for Results"
          placeholder="Search for Results"
          onSearch={(q) => {
            setSearch(q);
            setPage(1);
          }}
        />
      </div>
      {!parent ? (
        <fieldset className="filters">
          <legend className="sr-only">Show</legend>
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
              {f.label}
            </label>
          ))}
        </fieldset>
      ) : null}
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 ? (
        <p className="empty">{parent ? PARENT_EMPTY_TEXT : "No Result Found"}</p>
      ) : (
        <div className="table-wrap">
          <table className="table results-table table-stack">
            <caption className="sr-only">Results, page {page}</caption>
            <thead>
              <tr>
                <th scope="col">Child</th>
                <th scope="col">Uploaded on</th>
                <th scope="col">
                  <span className="sr-only">Download</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {padRows(rows).map((r, i) =>
                r ? (
                  <tr key={r.identifier} className={!parent && !r.read ? "unread" : ""}>
                    <td>
                      {r.baby_name}
                      {!parent && !r.read ? <span className="sr-only"> (unread)</span> : null}
                    </td>
                    <td>Uploaded on {formatUsDate(r.uploaded_date)}</td>
                    <td className="cell-action" data-label="Download">
                      <Button className="icon-btn" aria-label={`Download the result of ${r.baby_name}, uploaded on ${formatUsDate(r.uploaded_date)}`} onPress={() => void onDownload(r)}>
                        <DownloadIcon />
                      </Button>
                      <FhirExportButton row={r} />
                    </td>
                  </tr>
                ) : (
                  <tr key={`pad-${i}`} className="pad-row" aria-hidden="true">
                    <td colSpan={3}>&nbsp;</td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} lastPage={lastPage} onPage={setPage} label="Results pages" />
    </section>
  );
}
