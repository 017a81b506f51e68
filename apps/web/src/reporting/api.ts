import { upload } from "@crown/client/extras";
import { ApiError, crown, messageOf } from "../api/crown.ts";
import { failureOfAnswer, type SubmissionPorts } from "@crown/core/capture/submission";
import type { Api, ResultsOf } from "../api/wire.ts";
import { ANALYSIS_TYPES } from "@crown/core/report/entities";

/** Reports, uploads, results and downloads (spec section 7; api-contract.md "Reports"). */

export const ANALYSIS_TYPE = ANALYSIS_TYPES[0];

/** An upload with its attachments, as `/report/my-uploads` answers it. */
export type UploadItem = ResultsOf<Api["report"]["my-uploads"]["$post"]>["data"][number];
export type Attachment = UploadItem["attachments"][number];
/** A published result, as `/report/results` and `/report/parent-results` answer it. */
export type ResultItem = ResultsOf<Api["report"]["results"]["$post"]>["data"][number] | ResultsOf<Api["report"]["parent-results"]["$post"]>["data"][number];
type ResultsBody = Parameters<Api["report"]["results"]["$post"]>[0]["json"];
export type ResultFilter = NonNullable<ResultsBody["type"]>;

/** One key for every try of one submission's prepare (ADR 141): an answer lost on the way makes no second report. */
const prepareReport = (babyIdentifier: string, key: string, signal: AbortSignal) =>
  crown.results((api) => api.report.prepare.$post({ json: { baby_identifier: babyIdentifier, analysis_type: ANALYSIS_TYPE } }), { signal, headers: { "Idempotency-Key": key } });

const finalizeReport = (reportIdentifier: string, signal: AbortSignal) =>
  crown.results((api) => api.report.finalize.$post({ json: { report_identifier: reportIdentifier } }), { signal });

export const providerResults = (page: number, body: ResultsBody) => crown.call((api) => api.report.results.$post({ json: body, query: { page } }));

export const parentResults = (page: number, body: Parameters<Api["report"]["parent-results"]["$post"]>[0]["json"]) =>
  crown.call((api) => api.report["parent-results"].$post({ json: body, query: { page } }));

export const myUploads = (page: number, babyIdentifier: string, perPage = 10) =>
  crown.call((api) => api.report["my-uploads"].$post({ json: { baby_identifier: babyIdentifier, per_page: perPage }, query: { page } }));

export const downloadReport = (identifier: string, parent: boolean) =>
  crown.blob((api) => (parent ? api.report[":id"]["parent-download"].$get({ param: { id: identifier } }) : api.report[":id"].download.$get({ param: { id: identifier } })));

/** An attachment's file, or its thumbnail, by the route's parameters. */
const attachmentFile = (a: Pick<Attachment, "report_identifier" | "identifier" | "extension">, thumb: boolean) => {
  const param = { report: a.report_identifier, file: `${a.identifier}.${a.extension}` };
  return () => crown.blob((api) => (thumb ? api.report.thumb[":report"][":file"].$get({ param }) : api.report.attachment[":report"][":file"].$get({ param })), { quiet: true });
};
export const attachmentBlob = (a: Pick<Attachment, "report_identifier" | "identifier" | "extension">) => attachmentFile(a, false);
export const thumbBlob = (a: Pick<Attachment, "report_identifier" | "identifier" | "extension">) => attachmentFile(a, true);

/** Object URLs of thumbnails and attachments, cached by a key built from the two ids (the spec). */
const blobCache = new Map<string, Promise<string>>();
export const blobUrl = (file: () => Promise<Blob>, key: string): Promise<string> => {
  let hit = blobCache.get(key);
  if (!hit) {
    hit = file().then((b) => URL.createObjectURL(b));
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

/** One file's upload with progress (@crown/client sends it through XMLHttpRequest: fetch has no upload progress). */
const uploadFile = (reportIdentifier: string, file: File, onProgress: (loaded: number) => void, signal: AbortSignal) => {
  const form = new FormData();
  form.append("report_identifier", reportIdentifier);
  form.append("attachments[]", file, file.name);
  const sending = upload(crown, (api) => api.report.upload, { query: { report_identifier: reportIdentifier }, form }, (loaded) => onProgress(loaded));
  signal.addEventListener("abort", () => sending.abort(), { once: true });
  return sending.promise.then(() => undefined);
};

/** The portal's calls for core's submission machine (core/src/capture/submission.ts), for one baby. */
export const submissionPorts = (babyIdentifier: string, key = crypto.randomUUID()): SubmissionPorts => ({
  prepare: async (signal) => (await prepareReport(babyIdentifier, key, signal)).report_identifier,
  upload: (reportIdentifier, file, onProgress, signal) => uploadFile(reportIdentifier, file.content as File, onProgress, signal),
  finalize: async (reportIdentifier, signal) => void (await finalizeReport(reportIdentifier, signal)),
  failure: (error) => (error instanceof ApiError ? failureOfAnswer(error) : { message: messageOf(error), transient: false, offline: false }),
});

/** One date formatter for the portal and the PDF (core/src/shared/dates.ts). */
export { formatUsDate } from "@crown/core/shared/dates";

