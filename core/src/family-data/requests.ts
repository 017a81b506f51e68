import { Schema } from "effect";
import { Required } from "../shared/validation.ts";

/** The family data calls' messages and bodies; shared by the server and the portal. */
export const FAMILY_DATA_MESSAGES = {
  exportRequested: "We are preparing your data. We will e-mail you a download link when it is ready.",
  exportInProgress: "Your data is already being prepared. We will e-mail you when it is ready.",
  exports: "Data exports fetched successfully",
  linkUsed: "This download link has expired or was already used. Ask for a new archive from My data.",
  erasureQueue: "Accounts awaiting erasure fetched successfully",
} as const;

export const DownloadExportRequest = Schema.Struct({ identifier: Required("Identifier"), token: Required("Token") });
