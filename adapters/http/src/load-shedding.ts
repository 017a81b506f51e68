import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";
import type { MiddlewareHandler } from "hono";

/**
 * Load shedding (issue 19, ADRs 0055, 0090 and 0100): past a bounded number of API requests in progress a
 * new request is answered 503 with Retry-After at once instead of joining a queue that only grows until
 * sockets time out. A client told to come back in a second does better than one kept waiting a minute.
 *
 * The bound adapts to the event loop (ADR 0100). A fixed bound only sees the requests the process has read:
 * when the loop has no idle time left, new connections wait in the kernel's accept queue, unseen, and each is
 * admitted seconds late because few are in progress. So while the loop stays saturated (utilisation at or
 * above `SATURATED` for `SATURATED_SAMPLES` samples of 100 ms in a row) the bound halves from what was really
 * in progress, down to a floor; once the loop has idle time again it grows back a quarter at a time. Fewer
 * admitted requests leave the loop time to accept, read and refuse the rest promptly. (Reading the accept
 * queue itself from /proc/net/tcp was tried: under overload, with thousands of sockets listed, one read took
 * up to seconds, ADR 0100.)
 *
 * The decision is made twice with the same counter: first on the request's arrival, in the Node request
 * listener before any routing, body or framework work (`refuseEarly`: a refusal costs the header parse and
 * one write), then in the Hono middleware (`shedLoad`), which is what counts a request in and out and what
 * a server without the early gate (the tests' `app.request`) relies on. Every answer carries
 * `Server-Timing: app;dur=…` so a client (and the benchmark) sees the server's own share.
 */
export interface LoadLimit {
  /** API requests in progress at most while the loop has time to spare; the next one is refused. */
  readonly maxInFlight: number;
  /** The lowest the bound falls to while the loop is saturated. */
  readonly minInFlight: number;
  readonly retryAfterSeconds: number;
}

/** Requests in progress per core: a results page costs a few milliseconds of CPU, so 32 per core is 100–200 ms of work queued. */
const IN_FLIGHT_PER_CORE = 32;
/** The floor while saturated: a few per core keeps pages that fire several calls at once working. */
const MIN_IN_FLIGHT_PER_CORE = 2;
const CORES = Math.max(1, availableParallelism());

export const DEFAULT_LOAD_LIMIT: LoadLimit = {
  maxInFlight: IN_FLIGHT_PER_CORE * CORES,
  minInFlight: MIN_IN_FLIGHT_PER_CORE * CORES,
  retryAfterSeconds: 1,
};
export const BUSY_MESSAGE = "Crown is busy right now. Please try again in a moment.";

/** How often the event loop's utilisation is read. */
const LOOP_SAMPLE_MS = 100;
/** Utilisation at or above which a sample counts as saturated (less than 10 ms idle in 100 ms). */
const SATURATED = 0.9;
/** Utilisation below which the bound grows back. */
const SPARE = 0.75;
/** Saturated samples in a row before the bound is cut: a catch-up after a short pause is not overload. */
const SATURATED_SAMPLES = 3;

/** The shared state of one server's shedding: the requests in progress and the current bound. */
export class LoadGate {
  #inFlight = 0;
  #peak = 0;
  #bound: number;
  #saturatedRun = 0;
  /** Requests that arrived (admitted or refused) since the last sample. */
  #arrivals = 0;
  #refused = 0;
  #timer: NodeJS.Timeout | undefined;
  constructor(readonly limit: LoadLimit = DEFAULT_LOAD_LIMIT) {
    this.#bound = limit.maxInFlight;
  }

  get inFlight() {
    return this.#inFlight;
  }

  /** The bound in force now (between `minInFlight` and `maxInFlight`). */
  get bound() {
    return this.#bound;
  }

  /** Requests refused since the start (for logs and tests). */
  get refused() {
    return this.#refused;
  }

  /** Whether a new request may start now: a counter compare, nothing else. */
  admits(): boolean {
    return this.#inFlight < this.#bound;
  }

  enter() {
    this.#arrivals += 1;
    this.#inFlight += 1;
    if (this.#inFlight > this.#peak) this.#peak = this.#inFlight;
  }

  leave() {
    this.#inFlight -= 1;
  }

  refuse() {
    this.#arrivals += 1;
    this.#refused += 1;
  }

  /**
   * One sample of the loop's utilisation (0–1) over the last interval: cuts the bound after
   * `SATURATED_SAMPLES` saturated samples in a row, grows it back while the loop has time to spare. A
   * sample counts as saturated only if requests kept arriving (at least twice the floor in 100 ms): a loop
   * kept busy by something else (a report being rendered, other processes holding the CPU on a loaded
   * machine) while a few calls come in is not overload, and refusing those calls would relieve nothing.
   */
  observe(utilisation: number) {
    const { maxInFlight, minInFlight } = this.limit;
    const floor = Math.min(minInFlight, maxInFlight);
    const loaded = this.#arrivals >= 2 * floor;
    this.#saturatedRun = utilisation >= SATURATED && loaded ? this.#saturatedRun + 1 : 0;
    if (this.#saturatedRun >= SATURATED_SAMPLES) {
      // From what was really in progress: a bound far above it would refuse nothing.
      this.#bound = Math.max(floor, Math.floor(Math.min(this.#bound, this.#peak) / 2));
    } else if (utilisation < SPARE) {
      this.#bound = Math.min(maxInFlight, this.#bound + Math.max(1, Math.ceil(this.#bound / 4)));
    }
    this.#peak = this.#inFlight;
    this.#arrivals = 0;
  }

  /** Samples the event loop's utilisation every 100 ms (the server does; `stop` ends it). The timer never keeps the process alive. */
  watchEventLoop(): () => void {
    if (this.#timer) return () => this.stop();
    let last = performance.eventLoopUtilization();
    this.#timer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.observe(performance.eventLoopUtilization(now, last).utilization);
      last = now;
    }, LOOP_SAMPLE_MS);
    this.#timer.unref();
    return () => this.stop();
  }

  stop() {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#bound = this.limit.maxInFlight;
    this.#saturatedRun = 0;
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
 * health checks). The connection stays open after a refusal (ADR 0100): a client that comes back reuses it,
 * where closing it made every retry a new connection to accept, the work the refusal was meant to save
 * (idle ones are still closed after the keep-alive timeout, and connections are bounded).
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
