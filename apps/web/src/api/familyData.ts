import { ApiError, fallbackMessage, localizedApiBase, request } from "./client.ts";
import type { Api, ResultsOf } from "./wire.ts";

/** Signed-in devices and a family's own data (issue 44): the answers' types come from the server's routes. */

export type SignedInSession = ResultsOf<Api["user"]["sessions"]["$get"]>[number];
export type DataExportRow = ResultsOf<Api["user"]["data-exports"]["$get"]>[number];

export const signedInSessions = () => request<ReadonlyArray<SignedInSession>>("GET", "/user/sessions");
export const endSession = (identifier: string) => request<null>("POST", "/user/sessions/end", { json: { identifier } });
export const endOtherSessions = () => request<{ ended: number }>("POST", "/user/sessions/end-others", { json: {} });

export const dataExports = (quiet = false) => request<ReadonlyArray<DataExportRow>>("GET", "/user/data-exports", { quiet });
export const requestDataExport = () => request<DataExportRow>("POST", "/user/data-exports", { json: {} });

/**
 * The archive of an e-mailed link, as a file the browser saves. A POST with the session's token (a
 * link alone never downloads), so it goes through fetch; a refusal is the server's JSON message.
 */
export const downloadDataExport = async (token: string, identifier: string, linkToken: string): Promise<{ blob: Blob; fileName: string }> => {
  const res = await fetch(`${localizedApiBase()}/user/data-exports/download`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/zip, application/json" },
    body: JSON.stringify({ identifier, token: linkToken }),
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { message?: string; status?: string };
    throw new ApiError(res.status, body.message || fallbackMessage(), {}, body.status);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? "crown-data.zip";
  return { blob: await res.blob(), fileName: name };
};
