import type { Caller } from "@crown/core";
import type { Language } from "@crown/core/shared/i18n";
import type { HttpRuntime } from "./effect-bridge.ts";

/** Per-request values the middleware sets for the handlers. */
export type Env = {
  Variables: {
    requestId: string;
    clientIp: string | null;
    caller: Caller | undefined;
    runtime: HttpRuntime;
    /** The API prefix's language (`/api/v1/es/...`): answers and new accounts follow it. */
    language: Language;
    /** A small JSON body, already read from the Node request by the body policy (ADR 0103); unset elsewhere. */
    bodyText: string | undefined;
  };
};
