import { crown } from "./crown.ts";
import type { Api, ResultsOf } from "./wire.ts";

/** Signed-in devices and a family's own data (issue 44): each call names its route (ADR 0143). */

export type SignedInSession = ResultsOf<Api["user"]["sessions"]["$get"]>[number];
export type DataExportRow = ResultsOf<Api["user"]["data-exports"]["$get"]>[number];

export const signedInSessions = () => crown.call((api) => api.user.sessions.$get());
export const endSession = (identifier: string) => crown.call((api) => api.user.sessions.end.$post({ json: { identifier } }));
export const endOtherSessions = () => crown.call((api) => api.user.sessions["end-others"].$post());

export const dataExports = (quiet = false) => crown.call((api) => api.user["data-exports"].$get(), { quiet });
export const requestDataExport = () => crown.call((api) => api.user["data-exports"].$post());

/**
 * The archive of an e-mailed link, as a file the browser saves. A POST with the session's token (a
 * link alone never downloads); a refusal is the server's JSON message, thrown as ApiError.
 */
export const downloadDataExport = async (identifier: string, linkToken: string): Promise<{ blob: Blob; fileName: string }> => {
  const res = (await crown.api().user["data-exports"].download.$post({ json: { identifier, token: linkToken } })) as unknown as Response;
  const fileName = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? "crown-data.zip";
  return { blob: await crown.blobOf(res, {}), fileName };
};
