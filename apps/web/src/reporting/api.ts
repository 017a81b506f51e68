import i18next from "i18next";
import { localizedApiBase, ApiError, fallbackMessage, request, requestBlob, unauthorisedMessage } from "../api/client.ts";
import type { Page } from "../api/types.ts";
import { sessionActor } from "../session/store.ts";
import { ANALYSIS_TYPES } from "@crown/core/report/entities";
import type { ReportStatus } from "@crown/core/report/lifecycle";

/** Reports, uploads, results and downloads (spec section 7; api-contract.md "Reports"). */

export const ANALYSIS_TYPE = ANALYSIS_TYPES[0];

export interface Attachment {
  readonly identifier: string;
  readonly report_identifier: string;
  readonly file_type: "image" | "video";
  readonly file_name: string;
  readonly extension: string;
  readonly size?: number;
}

export interface UploadItem {
  readonly identifier: string;
  readonly report_identifier?: string;
  readonly baby_name: string;
  readonly upload_date?: string;
  readonly uploaded_date?: string;
  readonly status?: ReportStatus;
  readonly attachments: ReadonlyArray<Attachment>;
  readonly recapture_reasons?: ReadonlyArray<string>;
}

export interface ResultItem {
  readonly identifier: string;
  readonly baby_name: string;
  readonly uploaded_date: string;
  readonly parent_name?: string | null;
  readonly read: boolean;
}

export type ResultFilter = "all" | "new" | "reviewed";

export const prepareReport = (babyIdentifier: string) =>
  request<{ report_identifier: string }>("POST", "/report/prepare", { json: { baby_identifier: babyIdentifier, analysis_type: ANALYSIS_TYPE } });

export const finalizeReport = (reportIdentifier: string) => request<unknown>("POST", "/report/finalize", { json: { report_identifier: reportIdentifier } });

export const providerResults = (page: number, body: { per_page: number; search: string; type: ResultFilter; results_for_staff?: boolean; physician_id?: string }) =>
  request<Page<ResultItem>>("POST", "/report/results", { json: body, query: { page } });

export const parentResults = (page: number, body: { per_page: number; search: string; type?: ResultFilter }) =>
  request<Page<ResultItem>>("POST", "/report/parent-results", { json: body, query: { page } });

export const myUploads = (page: number, babyIdentifier: string, perPage = 10) =>
  request<Page<UploadItem>>("POST", "/report/my-uploads", { json: { baby_identifier: babyIdentifier, per_page: perPage }, query: { page } });

export const downloadReport = (identifier: string, parent: boolean) => requestBlob(`/report/${encodeURIComponent(identifier)}/${parent ? "parent-download" : "download"}`);

export const attachmentPath = (a: Pick<Attachment, "report_identifier" | "identifier" | "extension">) => `/report/attachment/${encodeURIComponent(a.report_identifier)}/${encodeURIComponent(a.identifier)}.${a.extension}`;
export const thumbPath = (a: Attachment) => `/report/thumb/${encodeURIComponent(a.report_identifier)}/${encodeURIComponent(a.identifier)}.${a.extension}`;

/** Object URLs of thumbnails and attachments, cached by a key built from the two ids (the spec). */
const blobCache = new Map<string, Promise<string>>();
export const blobUrl = (path: string, key: string): Promise<string> => {
  let hit = blobCache.get(key);
  if (!hit) {
    hit = requestBlob(path, { quiet: true }).then((b) => URL.createObjectURL(b));
    hit.catch(() => blobCache.delete(key));
    blobCache.set(key, hit);
  }
  return hit;
};

/** Saves a blob under `name` (Result.pdf) and opens it in a new window after 1 second (the spec); null: only saves. */
export const saveAndOpen = (blob: Blob, name: string, openAfterMs: number | null = 1000) => {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  document.body.appendChild(a);
  a.click();
  a.remove();
  if (openAfterMs === null) {
    window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return;
  }
  window.setTimeout(() => {
    window.open(url, "_blank", "noopener");
    window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }, openAfterMs);
};

/** One file's upload with progress through XMLHttpRequest (fetch has no upload progress). */
export interface UploadHandle {
  readonly promise: Promise<unknown>;
  abort(): void;
}

export const uploadFile = (reportIdentifier: string, file: File, onProgress: (loaded: number, total: number) => void): UploadHandle => {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<unknown>((resolve, reject) => {
    const form = new FormData();
    form.append("report_identifier", reportIdentifier);
    form.append("attachments[]", file, file.name);
    xhr.open("POST", `${localizedApiBase()}/report/upload?report_identifier=${encodeURIComponent(reportIdentifier)}`);
    xhr.setRequestHeader("Accept", "application/json");
    const token = sessionActor.getSnapshot().context.session?.token;
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      let body: { message?: string; results?: unknown; errors?: Record<string, string[]> } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        body = {};
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(file.size, file.size);
        resolve(body.results);
        return;
      }
      const message = body.message || (xhr.status === 401 ? unauthorisedMessage() : fallbackMessage());
      if (xhr.status === 401) sessionActor.send({ type: "UNAUTHORISED", message });
      reject(new ApiError(xhr.status, message, body.errors ?? {}));
    };
    xhr.onerror = () => reject(new ApiError(0, i18next.t("reporting:upload.unreachable")));
    xhr.onabort = () => reject(new DOMException("Upload cancelled", "AbortError"));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
};

/** One date formatter for the portal and the PDF (core/src/shared/dates.ts). */
export { formatUsDate } from "@crown/core/shared/dates";

