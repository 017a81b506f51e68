// An open-loop load at a fixed arrival rate (ADR 0096): request i is due at start + i / rate whatever
// the earlier answers did, and its latency is counted from that due time to the last byte of its answer,
// so a server that falls behind pays for the wait of every request it delays (no coordinated omission).
// Why not autocannon's `overallRate`: it is a per-second quota per connection (each connection sends
// back to back until its share of the second is used, then pauses until the next second), so "200
// requests/s" arrives as a burst of 200 at the start of each second, and its correction for omitted
// requests records every answer slower than 1 ms as a ramp of made-up samples down to 1 ms.
import { Agent, request } from "node:http";

export interface PlannedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

export interface OpenLoopResult {
  readonly sent: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** The server's own time (`Server-Timing: app;dur=`), p50 and p99, where it sent one. */
  readonly serverP50: number | null;
  readonly serverP99: number | null;
  /** Answers per second over the run (due time of the first request to the last answer). */
  readonly rate: number;
  readonly statuses: Readonly<Record<number, number>>;
  /** p50 and p99 of the answers of each status (e.g. the 503s of an overload apart from the 200s). */
  readonly byStatus: Readonly<Record<number, { readonly p50: number; readonly p99: number }>>;
  /** How late the generator itself sent requests (ms after their due time), p99 and max: a loaded client delays its own requests, and that wait is not the server's. */
  readonly sendLagP99: number;
  readonly sendLagMax: number;
  /** Each second of the run whose slowest answer took more than 50 ms: [second from the start, its slowest answer in ms] (when the stalls were). */
  readonly slowSeconds: ReadonlyArray<readonly [number, number]>;
  /** The slowest answers: [due time from the start, latency, the server's own time or -1], in ms (where a stall was, and whose it was). */
  readonly slowest: ReadonlyArray<readonly [number, number, number]>;
  /** Every answer's latency, ascending (to pool several runs into one percentile). */
  readonly latencies: ReadonlyArray<number>;
  /** The wall-clock time of the first request's due time (to line the slow seconds up with other logs). */
  readonly startedAt: Date;
}

/** The p-th percentile of values sorted ascending (nearest rank). */
export const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * `rate × seconds` requests spread evenly over `seconds`, cycling through `requests`, on at most
 * `connections` keep-alive sockets (a request due while all are busy waits for one, and that wait is
 * in its latency). Each request gives up after `timeoutSeconds` (counted as an error).
 */
export const openLoop = async (options: {
  readonly base: string;
  readonly rate: number;
  readonly seconds: number;
  readonly requests: ReadonlyArray<PlannedRequest>;
  readonly connections?: number;
  readonly timeoutSeconds?: number;
}): Promise<OpenLoopResult> => {
  const { hostname, port } = new URL(options.base);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections ?? 256 });
  const total = Math.max(1, Math.round(options.rate * options.seconds));
  const interval = 1000 / options.rate;
  // Each answer once: [due time from the start, latency], by status; the figures are derived from these.
  const timeline: Array<readonly [number, number, number]> = [];
  const serverTimes: number[] = [];
  const perStatus = new Map<number, number[]>();
  const sendLags: number[] = [];
  let errors = 0;
  let answered = 0;
  let lastAnswer = 0;
  const start = performance.now() + 20;
  const startedAt = new Date(Date.now() + 20);
  const dueAt = (i: number) => start + i * interval;

  await new Promise<void>((resolve) => {
    const settle = () => {
      answered += 1;
      lastAnswer = performance.now();
      if (answered === total) resolve();
    };
    const send = (i: number) => {
      const planned = options.requests[i % options.requests.length]!;
      const due = dueAt(i);
      sendLags.push(performance.now() - due);
      const body = planned.body === undefined ? undefined : Buffer.from(planned.body);
      const headers = body ? { ...planned.headers, "content-length": String(body.length) } : planned.headers;
      const req = request({ agent, host: hostname, port: Number(port), method: planned.method, path: planned.path, headers }, (res) => {
        res.on("data", () => undefined);
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          const timing = /app;dur=([\d.]+)/.exec(String(res.headers["server-timing"] ?? ""));
          if (timing) serverTimes.push(Number(timing[1]));
          const latency = performance.now() - due;
          if (!perStatus.has(status)) perStatus.set(status, []);
          perStatus.get(status)!.push(latency);
          timeline.push([due - start, latency, timing ? Number(timing[1]) : -1]);
          settle();
        });
        res.on("error", () => undefined);
      });
      req.setTimeout((options.timeoutSeconds ?? 15) * 1000, () => req.destroy(new Error("timeout")));
      req.on("error", () => {
        errors += 1;
        settle();
      });
      req.end(body);
    };
    let next = 0;
    const tick = () => {
      const now = performance.now();
      while (next < total && dueAt(next) <= now) send(next++);
      if (next < total) setTimeout(tick, Math.max(0, dueAt(next) - performance.now()));
    };
    setTimeout(tick, Math.max(0, start - performance.now()));
  });
  agent.destroy();
  const ascending = (xs: number[]) => xs.sort((a, b) => a - b);
  const sorted = ascending(timeline.map(([, latency]) => latency));
  const statuses = Object.fromEntries([...perStatus].map(([status, xs]) => [status, xs.length]));
  const ok = [...perStatus].reduce((n, [status, xs]) => (status >= 200 && status < 300 ? n + xs.length : n), 0);
  return {
    sent: total,
    ok,
    non2xx: sorted.length - ok,
    errors,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
    serverP50: serverTimes.length ? percentile(ascending(serverTimes), 50) : null,
    serverP99: serverTimes.length ? percentile(serverTimes, 99) : null,
    rate: answered / Math.max(0.001, (lastAnswer - start) / 1000),
    statuses,
    byStatus: Object.fromEntries(
      [...perStatus].map(([status, xs]) => [status, { p50: percentile(ascending(xs), 50), p99: percentile(xs, 99) }]),
    ),
    sendLagP99: percentile(ascending(sendLags), 99),
    sendLagMax: sendLags.at(-1) ?? 0,
    slowSeconds: [...timeline.reduce((worst, [due, latency]) => worst.set(Math.floor(due / 1000), Math.max(worst.get(Math.floor(due / 1000)) ?? 0, latency)), new Map<number, number>())]
      .filter(([, latency]) => latency > 50)
      .sort((a, b) => a[0] - b[0])
      .map(([second, latency]) => [second, Math.round(latency)] as const),
    slowest: timeline.sort((a, b) => b[1] - a[1]).slice(0, 12),
    latencies: sorted,
    startedAt,
  };
};
