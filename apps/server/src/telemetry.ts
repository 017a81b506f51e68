import { createRequire, syncBuiltinESMExports } from "node:module";
import type { NodeSDK, NodeSDKConfiguration } from "@opentelemetry/sdk-node";

/**
 * Traces (ADR 0142): the OpenTelemetry Node SDK with the HTTP (server and client), pg and undici (fetch)
 * instrumentations, exported over OTLP/HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`). Unset, nothing is loaded, patched or sent. The standard
 * `OTEL_*` variables (service name, resource attributes, sampler, headers) apply as the SDK reads them.
 *
 * Nothing a person typed leaves in a span: the exporter is wrapped so that every span's attributes and
 * events go out with the query string dropped from URLs, secrets in paths hidden, and e-mail addresses
 * replaced; server spans are named by their route pattern, never by the path; the SQL is the statement
 * with its placeholders, never the values.
 */

let sdk: NodeSDK | null = null;

export const telemetryEnabled = (env: NodeJS.ProcessEnv) => Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && env.OTEL_SDK_DISABLED !== "true";

const REDACTED = "[redacted]";
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const LONG_RANDOM = /[A-Za-z0-9_-]{32,}/g;
/** Attributes holding a URL or a path: kept without their query string. */
const URL_KEYS = new Set(["http.url", "http.target", "url.full", "url.path", "http.request.header.referer", "url.original"]);
/** Attributes dropped whole: the query string itself, and headers a client sets freely. */
const DROPPED_KEYS = new Set(["url.query", "http.user_agent", "user_agent.original", "db.query.parameter", "enduser.id"]);

/** Crown's own attributes, kept as they are: the request id (a UUID, which the long-random rule would hide). */
const KEPT_KEYS = new Set(["crown.request_id", "http.route"]);

const scrubText = (text: string) => text.replace(EMAIL, REDACTED).replace(LONG_RANDOM, REDACTED);
const scrubUrl = (text: string) => scrubText(text.split(/[?#]/, 1)[0] ?? "");

type Attributes = Record<string, unknown>;
/** The attributes as they may leave the process. */
export const scrubAttributes = (attributes: Attributes | undefined): Attributes => {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (DROPPED_KEYS.has(key) || key.startsWith("db.query.parameter")) continue;
    if (KEPT_KEYS.has(key)) out[key] = value;
    else if (typeof value === "string") out[key] = URL_KEYS.has(key) ? scrubUrl(value) : scrubText(value);
    else if (Array.isArray(value)) out[key] = value.map((v) => (typeof v === "string" ? scrubText(v) : v));
    else out[key] = value;
  }
  return out;
};

interface SpanLike {
  readonly name: string;
  readonly attributes: Attributes;
  readonly events: ReadonlyArray<{ name: string; attributes?: Attributes; time: unknown; droppedAttributesCount?: number }>;
}
interface ExporterLike<S> {
  export(spans: S[], done: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
}

/** A span exporter that hands `inner` every span with its attributes and events scrubbed (the span itself is left as it is). */
export const scrubbingExporter = <S extends SpanLike>(inner: ExporterLike<S>): ExporterLike<S> => ({
  export: (spans, done) =>
    inner.export(
      spans.map(
        (span) =>
          Object.create(span, {
            name: { value: scrubUrl(span.name), enumerable: true },
            attributes: { value: scrubAttributes(span.attributes), enumerable: true },
            events: { value: span.events.map((e) => ({ ...e, attributes: scrubAttributes(e.attributes) })), enumerable: true },
          }) as S,
      ),
      done,
    ),
  shutdown: () => inner.shutdown(),
  forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
});

/** Starts tracing when an OTLP endpoint is set; call before loading the modules to instrument. True when started. */
export const startTelemetry = async (env: NodeJS.ProcessEnv): Promise<boolean> => {
  if (!telemetryEnabled(env) || sdk) return sdk !== null;
  const [{ NodeSDK }, { OTLPTraceExporter }, { HttpInstrumentation }, { PgInstrumentation }, { UndiciInstrumentation }] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-pg"),
    import("@opentelemetry/instrumentation-undici"),
  ]);
  const health = (url: string | undefined) => url === "/healthz" || url === "/readyz" || url === "/metrics";
  sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME || `crown-${process.argv[2] ?? "cli"}`,
    traceExporter: scrubbingExporter(new OTLPTraceExporter() as unknown as ExporterLike<SpanLike>) as unknown as NodeSDKConfiguration["traceExporter"],
    // Metrics are Prometheus's (metrics.ts) and logs are JSON lines on stdout: only traces go over OTLP here.
    metricReaders: [],
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => health(req.url) }),
      // Statements with their placeholders only; no parameter values, no result counts of a person's rows.
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  // The HTTP instrumentation patches node:http when it is first required; Crown imports it as an ES module,
  // whose named bindings are then brought in line with the patched exports.
  const require = createRequire(import.meta.url);
  require("node:http");
  require("node:https");
  syncBuiltinESMExports();
  return true;
};

/** Sends the spans still buffered and stops tracing (on SIGTERM, and at the end of a CLI command). */
export const stopTelemetry = async () => {
  const running = sdk;
  sdk = null;
  await running?.shutdown().catch(() => undefined);
};
