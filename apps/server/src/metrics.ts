import { createServer, type Server } from "node:http";
import type { LoadGate } from "@crown/http";
import type { Database } from "@crown/db";
import { type Kysely, sql } from "kysely";
import client from "prom-client";

/**
 * Prometheus metrics of one process (ADR 0142), served on their own port (`METRICS_PORT`) and never on the
 * API's: a scrape sees request rates, latency and status per route pattern, requests in progress and shed,
 * the job queue's depth and age, analysis time per photo, the model's version, the event loop's delay and
 * the database pool. Labels are route patterns, methods, statuses, queue names and the model's version:
 * never a path, an identifier, a name or anything a person typed.
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: "crown_process_" });

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const requests = new client.Counter({ name: "crown_http_requests_total", help: "HTTP requests answered, by method, route pattern and status", labelNames: ["method", "route", "status"], registers: [registry] });
const latency = new client.Histogram({
  name: "crown_http_request_duration_seconds",
  help: "Time to the answer's headers, by method, route pattern and status",
  labelNames: ["method", "route", "status"],
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});
const perPhoto = new client.Histogram({
  name: "crown_analysis_seconds_per_photo",
  help: "An analysis job's time divided by the photos it measured",
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32],
  registers: [registry],
});
const jobs = new client.Histogram({ name: "crown_job_duration_seconds", help: "Background jobs run by this process, by queue and outcome", labelNames: ["queue", "outcome"], buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120], registers: [registry] });

/** One answered request; `route` is the pattern that matched (`/api/v1/en/report/:id`), never the path. */
export const observeRequest = (method: string, route: string, status: number, seconds: number) => {
  const labels = { method, route, status: String(status) };
  requests.inc(labels);
  latency.observe(labels, seconds);
};

export const observeJob = (queue: string, outcome: "done" | "failed", seconds: number, photos?: number) => {
  jobs.observe({ queue, outcome }, seconds);
  if (outcome === "done" && photos && photos > 0) perPhoto.observe(seconds / photos);
};

/** The requests in progress and shed by this server's load gate, read at each scrape. */
export const watchLoadGate = (gate: LoadGate) => {
  new client.Gauge({
    name: "crown_http_requests_in_flight",
    help: "API requests in progress",
    registers: [registry],
    collect() {
      this.set(gate.inFlight);
    },
  });
  new client.Gauge({
    name: "crown_http_in_flight_bound",
    help: "API requests in progress at most before new ones are shed (adapts to the event loop)",
    registers: [registry],
    collect() {
      this.set(gate.bound);
    },
  });
  new client.Counter({
    name: "crown_http_requests_shed_total",
    help: "API requests answered 503 with Retry-After because the server was busy",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(gate.refused);
    },
  });
};

/** The job queue (every process's view of the one queue) and the database pool, read at each scrape. */
export const watchDatabase = (db: Kysely<Database>, pool: (() => { total: number; idle: number; waiting: number }) | undefined) => {
  // One query per scrape, shared by the queue's gauges (each gauge's collect runs in turn; the first asks).
  type QueueRow = { name: string; waiting: number; active: number; oldest: number | null };
  let snapshot: { at: number; rows: Promise<QueueRow[] | null> } | null = null;
  const queue = () => {
    if (!snapshot || Date.now() - snapshot.at > 1_000) {
      snapshot = {
        at: Date.now(),
        rows: sql<QueueRow>`
          select name,
                 count(*) filter (where state in ('created', 'retry') and start_after <= now())::int as waiting,
                 count(*) filter (where state = 'active')::int as active,
                 extract(epoch from now() - min(created_on) filter (where state in ('created', 'retry') and start_after <= now()))::float8 as oldest
          from pgboss.job where state in ('created', 'retry', 'active') group by name`
          .execute(db)
          .then((r) => r.rows)
          // pg-boss's schema not there yet (nothing enqueued on a fresh database), or the database away.
          .catch(() => null),
      };
    }
    return snapshot.rows;
  };
  const queueGauge = (name: string, help: string, pick: (r: QueueRow) => number) =>
    new client.Gauge({
      name,
      help,
      labelNames: ["queue"],
      registers: [registry],
      async collect() {
        const rows = await queue();
        this.reset();
        for (const r of rows ?? []) this.set({ queue: r.name }, pick(r));
      },
    });
  queueGauge("crown_jobs_waiting", "Jobs waiting to run now, by queue", (r) => r.waiting);
  queueGauge("crown_jobs_active", "Jobs running, by queue", (r) => r.active);
  queueGauge("crown_jobs_oldest_waiting_seconds", "Age of the oldest job waiting to run now, by queue", (r) => r.oldest ?? 0);
  new client.Gauge({
    name: "crown_jobs_scrape",
    help: "1 when the job queue could be read at this scrape",
    registers: [registry],
    async collect() {
      this.set((await queue()) === null ? 0 : 1);
    },
  });
  if (pool) {
    new client.Gauge({
      name: "crown_db_pool_connections",
      help: "PostgreSQL pool connections: open (total), idle, and callers waiting for one",
      labelNames: ["state"],
      registers: [registry],
      collect() {
        const p = pool();
        this.set({ state: "total" }, p.total);
        this.set({ state: "idle" }, p.idle);
        this.set({ state: "waiting" }, p.waiting);
      },
    });
  }
};

/** The model this process measures with (1 with its name and card version; nothing when none is loaded). */
export const watchModel = (identity: { name: string; version: string } | undefined) => {
  const info = new client.Gauge({ name: "crown_model_info", help: "The head-contour model loaded, by name and card version", labelNames: ["name", "version"], registers: [registry] });
  if (identity) info.set({ name: identity.name, version: identity.version }, 1);
};

/**
 * `GET /metrics` on its own port (`METRICS_PORT`; `METRICS_HOST`, default 127.0.0.1): Prometheus scrapes
 * it inside the deployment's network, and the public port never serves it.
 */
export const serveMetrics = async (port: number, host: string): Promise<Server> => {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error) => res.writeHead(500, { "content-type": "text/plain" }).end(`metrics failed: ${String(error?.message ?? error).slice(0, 200)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  server.unref();
  return server;
};
