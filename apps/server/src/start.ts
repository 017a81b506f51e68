import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import { setFlagsFromString } from "node:v8";
import { getRequestListener } from "@hono/node-server";
import { PasswordHasher } from "@crown/core";
import { type AnsweredRequest, busyBodyFor, type LoadGate, refuseEarly } from "@crown/http";
import { trace } from "@opentelemetry/api";
import { Effect } from "effect";
import type { ServerConfig } from "./config.ts";
import { composeServices, createServerApp, loadGateFor } from "./compose.ts";
import { demoAccountsPath } from "./demo-accounts.ts";
import { seedDemo } from "./seed.ts";
import { startReportWorker } from "./reports.ts";
import { startChatWorker } from "./chat.ts";
import { startRecovery } from "./recovery.ts";
import { log } from "./log.ts";
import { observeRequest, serveMetrics, watchDatabase, watchLoadGate, watchModel } from "./metrics.ts";
import { stopTelemetry } from "./telemetry.ts";

/**
 * What each answered request leaves (ADR 0142): its figures in the metrics, its route pattern and request id
 * on its trace span, and one access-log line (health checks apart).
 */
export const observeAnswered = (accessLog: boolean) => (a: AnsweredRequest) => {
  observeRequest(a.method, a.route, a.status, a.seconds);
  const span = trace.getActiveSpan();
  if (span) {
    span.setAttribute("crown.request_id", a.requestId);
    span.setAttribute("http.route", a.route);
    span.updateName(`${a.method} ${a.route}`);
  }
  if (accessLog && a.route !== "/healthz" && a.route !== "/readyz") {
    log({ level: a.status >= 500 ? "error" : "info", msg: "request", requestId: a.requestId, method: a.method, route: a.route, status: a.status, ms: Math.round(a.seconds * 1000) });
  }
};


/** Idle keep-alive connections are closed after this long (Node's default); a request's headers must arrive within HEADERS_TIMEOUT_MS. */
const KEEP_ALIVE_MS = 5_000;
const HEADERS_TIMEOUT_MS = 10_000;
/** Connections waiting to be accepted (the kernel caps it at net.core.somaxconn). */
const ACCEPT_BACKLOG = 4096;

/**
 * What a stopping server needs of its requests (ADR 0141): which are in progress, which of them are event
 * streams (never finishing, cut at once so the tab reconnects to another process with Last-Event-ID), and
 * a `/readyz` that says 503 from the stop on, so a balancer sends nothing new here.
 */
export const drainable = (listener: RequestListener) => {
  const inProgress = new Set<ServerResponse>();
  let draining = false;
  let settle: (() => void) | null = null;
  const handle: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    if (draining) {
      // Admitted on a connection that was already open: served, and that connection closed after it.
      res.setHeader("connection", "close");
      if (req.url === "/readyz") {
        res.writeHead(503, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify({ status: "stopping" }));
        return;
      }
    }
    inProgress.add(res);
    // An event stream is asked for with Accept: text/event-stream (EventSource always sends it); the
    // answer's own headers are not readable here (written in one writeHead).
    if ((req.headers.accept ?? "").includes("text/event-stream")) streams.add(res);
    res.once("close", () => {
      inProgress.delete(res);
      streams.delete(res);
      if (draining && settle && busy() === 0) settle();
    });
    listener(req, res);
  };
  const streams = new WeakSet<ServerResponse>();
  const isStream = (res: ServerResponse) => streams.has(res);
  const busy = () => [...inProgress].filter((res) => !isStream(res)).length;
  return {
    listener: handle,
    /** Stops admitting new requests' readiness, cuts the event streams, and waits up to `seconds` for the rest. */
    drain: async (seconds: number) => {
      draining = true;
      for (const res of inProgress) if (isStream(res)) res.destroy();
      if (busy() > 0) {
        await new Promise<void>((resolve) => {
          settle = resolve;
          setTimeout(resolve, seconds * 1000).unref();
        });
      }
      return busy();
    },
  };
};

/**
 * The Node HTTP server around the app, as Crown runs it: shedding on arrival before Hono builds a request
 * (ADR 0090); connections bounded, idle ones closed after KEEP_ALIVE_MS; a burst of new ones waits in the
 * kernel's accept queue rather than being dropped (a dropped SYN is retried only after a second, then three,
 * then seven). Not listening yet.
 */
export const createHttpServer = (app: { fetch: (request: Request, env?: unknown) => Response | Promise<Response> }, gate: LoadGate, maxConnections: number, wrap: (listener: RequestListener) => RequestListener = (l) => l) => {
  const server = createServer(wrap(refuseEarly(gate, busyBodyFor, getRequestListener(app.fetch))));
  server.maxConnections = maxConnections;
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  return server;
};

/** Starts Crown: migrations, demo data on the embedded default (listening on 127.0.0.1 unless HOST is set), the HTTP server, and a clean stop on SIGTERM. */
export const startServer = async (config: ServerConfig) => {
  // V8 decides, per allocation site, to allocate straight into the old generation when the site's first
  // objects all lived long (those made while the server starts). Sites that later make one request's
  // short-lived objects then filled the old generation with garbage: a full collection every 30 s or so,
  // with the event loop held 100-200 ms on two cores. Without it, what a scavenge promotes falls to a
  // third (ADR 0103). Set before the first request; V8 reads it at each collection.
  setFlagsFromString("--no-allocation-site-pretenuring");
  const services = await composeServices(config);
  // One hash now starts the password-hashing threads (kept from then on, ADR 0107): the first sign-in
  // after a start does not pay for it, nor do the requests it would share the CPU with.
  await services.run(Effect.flatMap(PasswordHasher, (hasher) => hasher.hash(randomUUID())));
  const gate = loadGateFor(config);
  const stopWatching = gate.watchEventLoop();
  const app = createServerApp(config, services, log, gate, observeAnswered(config.accessLog));
  if (config.metricsPort !== undefined) {
    watchLoadGate(gate);
    watchDatabase(services.database.db, services.database.poolStats);
    watchModel(services.model?.identity);
    await serveMetrics(config.metricsPort, config.metricsHost);
  }
  const embedded = services.database.kind === "pglite";
  // Demo accounts only ever on the embedded database (ADR 24); with DATABASE_URL there are none.
  const demo = embedded ? await seedDemo(services, config.dataDir) : [];
  // The analysis worker runs in the server unless CROWN_WORKER=off (then `pnpm crown worker` runs it).
  const worker = config.runWorker ? startReportWorker(services.database.db, services.run, log) : null;
  const recovery = config.runWorker ? startRecovery(config, services.database.db, services.run, log) : null;
  // Unseen chat messages are e-mailed by every server process; the claim makes each go once.
  const chatWorker = startChatWorker(services.run, log);
  let drain: ((seconds: number) => Promise<number>) | null = null;
  const server = createHttpServer(app, gate, config.maxConnections, (listener) => {
    const requests = drainable(listener);
    drain = requests.drain;
    return requests.listener;
  });
  const hostname = process.env.HOST || (embedded ? "127.0.0.1" : "0.0.0.0");
  server.listen({ port: config.port, host: hostname, backlog: ACCEPT_BACKLOG }, () => {
    const address = server.address();
    const info = { port: typeof address === "object" && address !== null ? address.port : config.port };
    const lines = [
      `Crown is running at ${config.publicUrl} (port ${info.port})`,
      `  database: ${services.database.kind}${embedded ? ` in ${config.dataDir}/pglite` : ""}`,
      `  files:    ${config.s3 ? `S3 ${config.s3.endpoint}` : `${config.dataDir}/blobs`}`,
      `  e-mail:   ${config.smtpUrl ? "SMTP" : `.eml files in ${config.dataDir}/mail`}`,
      `  jobs:     ${worker ? "analysis worker in this process" : "no worker here (CROWN_WORKER=off): run `pnpm crown worker`"}`,
      ...(services.pipeline.ffmpeg ? [`  WARNING:  videos cannot be analysed: ${services.pipeline.ffmpeg}`] : []),
      ...(services.pipeline.model ? [`  WARNING:  photos cannot be measured automatically: ${services.pipeline.model}`] : []),
    ];
    if (demo.length > 0) {
      lines.push(`  demo accounts (passwords made for this data directory, also in ${demoAccountsPath(config.dataDir)}):`);
      for (const a of demo) lines.push(`    ${a.role.padEnd(16)} ${a.email.padEnd(24)} ${a.password}`);
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log({ level: "info", msg: `received ${signal}, shutting down` });
    // No new connection from here on (a balancer's next try goes to another process); the requests already
    // admitted finish, on a database still open, before anything is closed (ADR 0141).
    server.close();
    server.closeIdleConnections();
    const unfinished = (await drain?.(config.drainSeconds)) ?? 0;
    if (unfinished > 0) log({ level: "warn", msg: "stopped with requests still in progress", unfinished });
    server.closeAllConnections();
    stopWatching();
    await recovery?.stop();
    await worker?.stop();
    await chatWorker.stop();
    await services.close();
    await stopTelemetry();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  return { server, services };
};
