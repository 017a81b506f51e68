import type { ManagedRuntime } from "effect";
import type { Caller } from "@crown/core";

/** Per-request values the middleware sets for the handlers. */
export type Env = {
  Variables: {
    requestId: string;
    clientIp: string | null;
    caller: Caller | undefined;
    runtime: ManagedRuntime.ManagedRuntime<any, never>;
  };
};
