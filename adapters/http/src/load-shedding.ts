import type { MiddlewareHandler } from "hono";

/**
 * Load shedding (issue 19): past a bounded number of API requests in progress, a new one is answered
 * 503 with Retry-After at once, instead of joining a queue that only grows until sockets time out.
 * A client told to come back in a second does better than one kept waiting a minute. Every answer
 * carries `Server-Timing: app;dur=…` so a client (and the benchmark) sees the server's own share.
 */
export interface LoadLimit {
  /** API requests in progress at most; the next one is refused. */
  readonly maxInFlight: number;
  readonly retryAfterSeconds: number;
}

export const DEFAULT_LOAD_LIMIT: LoadLimit = { maxInFlight: 256, retryAfterSeconds: 1 };
export const BUSY_MESSAGE = "Crown is busy right now. Please try again in a moment.";

export const shedLoad = (limit: LoadLimit = DEFAULT_LOAD_LIMIT): MiddlewareHandler => {
  let inFlight = 0;
  return async (c, next) => {
    const started = performance.now();
    if (inFlight >= limit.maxInFlight) {
      return c.json({ message: BUSY_MESSAGE }, 503, { "retry-after": String(limit.retryAfterSeconds), "cache-control": "no-store" });
    }
    inFlight += 1;
    try {
      await next();
    } finally {
      // A streamed answer (a file, the event stream) counts until its handler returns, not while it streams:
      // what is bounded is the work that competes for the event loop and the database pool.
      inFlight -= 1;
    }
    c.res.headers.append("server-timing", `app;dur=${(performance.now() - started).toFixed(1)}`);
  };
};
