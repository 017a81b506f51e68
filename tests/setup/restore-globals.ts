import { afterAll, beforeAll } from "vitest";

/**
 * The unit and integration workers run file after file in one process (isolate: false, vitest.config.ts).
 * @hono/node-server swaps the global Request and Response for its own lighter ones when a file starts a
 * Node server; every file must meet the runtime's own, as it would in a process of its own. The runtime's
 * are kept the first time this runs in a worker, before any file (in production the server makes the
 * swap once, for the whole process).
 */
const KEPT = Symbol.for("crown.tests.runtimeGlobals");
const store = globalThis as unknown as Record<symbol, Record<"Request" | "Response", unknown> | undefined>;
const runtime = (store[KEPT] ??= { Request: globalThis.Request, Response: globalThis.Response });

const restore = () => {
  for (const [name, value] of Object.entries(runtime)) {
    if ((globalThis as Record<string, unknown>)[name] !== value) Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
  }
};
beforeAll(restore);
afterAll(restore);
