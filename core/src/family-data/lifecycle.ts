/**
 * A data export's lifecycle (issue 44), written only here: preparing (the background job builds the
 * archive), available (the e-mailed link works), downloaded (the link was used: it works once),
 * lapsed (24 hours passed: the archive is removed), unfinished (the job gave up; the parent asks
 * again). Plain: the portal imports it.
 */
export const DATA_EXPORT_STATUSES = ["preparing", "available", "downloaded", "lapsed", "unfinished"] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

export const PREPARING_EXPORT: DataExportStatus = "preparing";
export const AVAILABLE_EXPORT: DataExportStatus = "available";
export const DOWNLOADED_EXPORT: DataExportStatus = "downloaded";
export const LAPSED_EXPORT: DataExportStatus = "lapsed";
export const UNFINISHED_EXPORT: DataExportStatus = "unfinished";

export type DataExportEvent = "PREPARED" | "GAVE_UP" | "DOWNLOADED" | "LAPSED";

const NEXT: Readonly<Record<DataExportStatus, Partial<Record<DataExportEvent, DataExportStatus>>>> = {
  preparing: { PREPARED: "available", GAVE_UP: "unfinished" },
  available: { DOWNLOADED: "downloaded", LAPSED: "lapsed" },
  downloaded: { LAPSED: "lapsed" },
  lapsed: {},
  unfinished: {},
};

/** The status after `event`, or null when the export may not take it. */
export const exportAfter = (status: DataExportStatus, event: DataExportEvent): DataExportStatus | null => NEXT[status][event] ?? null;
export const exportCan = (status: DataExportStatus, event: DataExportEvent) => exportAfter(status, event) !== null;
/** Whether a new export may be asked for while this one stands (one at a time). */
export const exportInProgress = (status: DataExportStatus) => status === PREPARING_EXPORT;
/** Statuses whose archive is still in the store (removed when it lapses). */
export const holdsArchive = (status: DataExportStatus) => exportCan(status, "LAPSED");
