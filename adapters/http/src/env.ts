import type { Caller } from "@crown/core";
import type { HttpRuntime } from "./effect-bridge.ts";

/** Per-request values the middleware sets for the handlers. */
export type Env = {
  Variables: {
    requestId: string;
    clientIp: string | null;
    caller: Caller | undefined;
    runtime: HttpRuntime;
  };
};
