import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { availableParallelism } from "node:os";
import { type IntervalHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import type { MiddlewareHandler } from "hono";

/**
 * Load shedding (issue 19, ADRs 0055 and 0090): past a bounded number of API requests in progress, or
 * while the event loop lags behind under our own load, a new request is answered 503 with Retry-After
 * at once instead of joining a queue that only grows until sockets time out. A client told to come back
 * in a second does better than one kept waiting a minute.
 *
 * The decision is made twice with the same counter: first on the request's arrival, in the Node request
 * listener before any routing, body or framework work (`refuseEarly`: a refusal costs the header parse and
 * one write), then in the Hono middleware (`shedLoad`), which is what counts a request in and out and what
 * a server without the early gate (the tests' `app.request`) relies on. Every answer carries
 * `Server-Timing: app;dur=…` so a client (and the benchmark) sees the server's own share.
 */
export interface LoadLimit {
  /** API requests in progress at most; the next one is refused. */
  readonly maxInFlight: number;
  readonly retryAfterSeconds: number;
  /**
   * Event-loop delay (ms, the worst in the last sample) above which new requests are refused while more
   * than `maxInFlight / 2` are in progress: a loop that lags while busy with our own requests would make
   * every new one wait that long too. A lag with less in progress (another process took the CPU, a
   * garbage collection, a steady load on a busy machine) refuses nothing.
   */
  readonly maxLoopDelayMs: number;
}

/** Requests in progress per core: a results page costs a few milliseconds of CPU, so 32 per core is 100–200 ms of work queued. */
const IN_FLIGHT_PER_CORE = 32;

export const DEFAULT_LOAD_LIMIT: LoadLimit = {
  maxInFlight: IN_FLIGHT_PER_CORE * Math.max(1, availableParallelism()),
  retryAfterSeconds: 1,
  maxLoopDelayMs: 200,
};
export const BUSY_MESSAGE = "Crown is busy right now. Please try again in a moment.";

/** How often the event loop's delay is read (and its histogram restarted). */
const LOOP_SAMPLE_MS = 100;

/** The shared state of one server's shedding: the requests in progress and whether the loop lags. */
export class LoadGate {
  #inFlight = 0;
  #lagging = false;
  #refused = 0;
  #monitor: IntervalHistogram | undefined;
  #timer: NodeJS.Timeout | undefined;
  constructor(readonly limit: LoadLimit = DEFAULT_LOAD_LIMIT) {}

  get inFlight() {
    return this.#inFlight;
  }

  /** Requests refused since the start (for logs and tests). */
  get refused() {
    return this.#refused;
  }

  /** Whether a new request may start now: a counter compare, nothing else. */
  admits(): boolean {
    if (this.#inFlight >= this.limit.maxInFlight) return false;
    return !(this.#lagging && this.#inFlight > this.limit.maxInFlight / 2);
  }

  enter() {
    this.#inFlight += 1;
  }

  leave() {
    this.#inFlight -= 1;
  }

  refuse() {
    this.#refused += 1;
  }

  /** Watches the event loop's delay (the server does; `stop` ends it). The timer never keeps the process alive. */
  watchEventLoop(): () => void {
    if (this.#monitor) return () => this.stop();
    const monitor = monitorEventLoopDelay({ resolution: 10 });
    monitor.enable();
    this.#monitor = monitor;
    let last = performance.now();
    this.#timer = setInterval(() => {
      // The worst delay since the last sample decides the next 100 ms: the histogram's, or this timer's own
      // lateness (a loop held for a long time runs this before the histogram's timer records it).
      const now = performance.now();
      const late = now - last - LOOP_SAMPLE_MS;
      last = now;
      this.#lagging = Math.max(monitor.max / 1e6, late) > this.limit.maxLoopDelayMs;
      monitor.reset();
    }, LOOP_SAMPLE_MS);
    this.#timer.unref();
    return () => this.stop();
  }

  stop() {
    if (this.#timer) clearInterval(this.#timer);
    this.#monitor?.disable();
    this.#monitor = undefined;
    this.#timer = undefined;
    this.#lagging = false;
  }
}

const busyHeaders = (limit: LoadLimit) => ({ "retry-after": String(limit.retryAfterSeconds), "cache-control": "no-store" });

/** The Hono side: counts API requests in and out, refuses past the gate, and stamps `Server-Timing`. */
export const shedLoad = (gate: LoadGate = new LoadGate()): MiddlewareHandler => {
  return async (c, next) => {
    const started = performance.now();
    if (!gate.admits()) {
      gate.refuse();
      return c.json({ message: BUSY_MESSAGE }, 503, busyHeaders(gate.limit));
    }
    gate.enter();
    try {
      await next();
    } finally {
      // A streamed answer (a file, the event stream) counts until its handler returns, not while it streams:
      // what is bounded is the work that competes for the event loop and the database pool.
      gate.leave();
    }
    c.res.headers.append("server-timing", `app;dur=${(performance.now() - started).toFixed(1)}`);
  };
};

/**
 * The Node side: wraps the server's request listener so that a request the gate would refuse is answered
 * before it reaches Hono (no Request object, no routing, no body read). `busyBody(url)` is the 503's JSON
 * for a shed path (in the language of its prefix), or null for a path that is never shed (static files,
 * health checks). The connection is closed after a refusal: under overload, fewer idle keep-alive sockets.
 */
export const refuseEarly = (gate: LoadGate, busyBody: (url: string) => string | null, listener: RequestListener): RequestListener => {
  const headers = busyHeaders(gate.limit);
  return (req: IncomingMessage, res: ServerResponse) => {
    if (!gate.admits()) {
      const body = busyBody(req.url ?? "/");
      if (body !== null) {
        gate.refuse();
        const started = performance.now();
        // The body is read and dropped (a close with unread bytes would reset the connection under the answer).
        req.resume();
        res.shouldKeepAlive = false;
        res.writeHead(503, {
          ...headers,
          "content-type": "application/json",
          "x-content-type-options": "nosniff",
          "content-length": Buffer.byteLength(body),
          "server-timing": `app;dur=${(performance.now() - started).toFixed(1)}`,
        });
        res.end(body);
        return;
      }
    }
    listener(req, res);
  };
};
