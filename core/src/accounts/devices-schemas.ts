import { Schema } from "effect";
import { Required } from "../shared/validation.ts";

/** The signed-in devices' request and messages (shared by the server and the portal's profile). */
export const DEVICE_MESSAGES = {
  list: "Signed-in devices fetched successfully",
  ended: "The session on that device has ended.",
  endedOthers: "Every other session has ended.",
} as const;

export const SessionIdentifierRequest = Schema.Struct({ identifier: Required("Identifier") });
