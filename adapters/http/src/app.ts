import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { matchedRoutes } from "hono/route";
import { secureHeaders } from "hono/secure-headers";
import type { Env } from "./env.ts";
import { bodyPolicy } from "./body-policy.ts";
import { HttpFailure, type HttpRuntime } from "./effect-bridge.ts";
import { BUSY_MESSAGE, LoadGate, shedLoad } from "./load-shedding.ts";
import { openApiDocument } from "./openapi.ts";
import { redactPath, redactText } from "./redact.ts";
import { urlProblem } from "./request.ts";
import { accountsRoutes } from "./routes/accounts.ts";
import { adminRoutes } from "./routes/admin.ts";
import { learningRoutes } from "./routes/learning.ts";
import { chatRoutes } from "./routes/chat.ts";
import { kioskRoutes } from "./routes/kiosk.ts";
import { liveRoutes } from "./routes/live.ts";
import { onboardingRoutes } from "./routes/onboarding.ts";
import { notificationRoutes, practiceRoutes } from "./routes/practice.ts";
import { reportsRoutes } from "./routes/reports.ts";
import { FHIR_BASE, fhirRoutes } from "./routes/fhir.ts";
import { LANGUAGES, type Language } from "@crown/core/shared/i18n";
import { answerIn, translate } from "./i18n.ts";
import { HTTP_MESSAGES } from "./messages.ts";

export const API_BASE = "/api/v1/en";
/** The API in one language: `/api/v1/<language>` (the same calls; answers in that language, ADR 76). */
export const apiBase = (language: Language) => `/api/v1/${language}`;
/** Answers without their own Cache-Control: personal data must not stay in a browser's or a proxy's cache (ADR 20). */
const API_CACHE_CONTROL = "no-store";
const HSTS = "max-age=31536000; includeSubDomains";

export interface ApiOptions {
  /** The composition root's runtime: it must provide every port of `HttpPorts`. */
  readonly runtime: HttpRuntime;
  /** Resolves the client address (the Node adapter's socket, or a trusted proxy header). */
  readonly clientIp: (c: import("hono").Context<Env>) => string | null;
  /** Whether the browser reached us over HTTPS (directly, or as a trusted proxy says): only then is HSTS sent. */
  readonly servedOverHttps?: (c: import("hono").Context<Env>) => boolean;
  readonly publicUrl: string;
  readonly log?: (line: Record<string, unknown>) => void;
  /** Seconds between an event stream's session checks (default 15). */
  readonly liveCheckSeconds?: number;
  /** Public settings for the portal (GET /config): the external shop, webinar, app store and help video addresses. */
  readonly publicConfig?: PublicConfig;
  /** The load shedding's state (default: a gate with `DEFAULT_LOAD_LIMIT`); the server shares it with `refuseEarly`. */
  readonly loadGate?: LoadGate;
  /**
   * Told of every answered request, in the request's own context (its trace span is the active one): the
   * route pattern that answered (`/api/v1/en/report/:id`, never the path), for metrics, the access log and
   * traces (ADR 0142).
   */
  readonly observe?: (answered: AnsweredRequest) => void;
}

export interface AnsweredRequest {
  readonly method: string;
  /** The pattern of the route that answered; never the path, which may carry identifiers or a token. */
  readonly route: string;
  readonly status: number;
  readonly seconds: number;
  readonly requestId: string;
}

/** The server's public settings (GET /config); an optional one is absent when the server has none. */
export interface PublicConfig {
  readonly buy_kits_url?: string;
  readonly webinar_url?: string;
  readonly app_store_url?: string;
  readonly play_store_url?: string;
  readonly help_video_url?: string;
  /** Where the login page's social sign-in buttons lead; a button shows only when its address is set. */
  readonly google_sign_in_url?: string;
  readonly apple_sign_in_url?: string;
  readonly facebook_sign_in_url?: string;
}

/** The API routes, chained so that `AppType` carries every route's types to the typed clients. */
export const apiRoutes = (options: ApiOptions) =>
  new Hono<Env>()
    .use("*", async (c, next) => {
      // NUL bytes and broken characters in a path or query never reach a use case or the database.
      const problem = urlProblem(c.req.url);
      if (problem) return problem;
      c.set("runtime", options.runtime);
      c.set("clientIp", options.clientIp(c));
      await next();
    })
    .use("*", async (c, next) => {
      await next();
      if (!c.res.headers.has("cache-control")) c.res.headers.set("cache-control", API_CACHE_CONTROL);
      // Files are answered as raw Responses: they carry the request id too (it names their audit row).
      if (!c.res.headers.has("x-request-id")) c.res.headers.set("x-request-id", c.get("requestId"));
    })
    .use("*", bodyPolicy(API_BASE))
    .route("/", accountsRoutes())
    .route("/", onboardingRoutes())
    .route("/", practiceRoutes())
    .route("/", notificationRoutes())
    .route("/", chatRoutes())
    .route("/", liveRoutes({ checkSeconds: options.liveCheckSeconds }))
    .route("/", reportsRoutes())
    .route("/", kioskRoutes())
    .route("/", adminRoutes())
    .route("/", learningRoutes())
    .get("/config", (c) => c.json({ message: HTTP_MESSAGES.config, results: options.publicConfig ?? ({} as PublicConfig) }))
    .get("/openapi.json", (c) => c.json(openApiDocument(`${options.publicUrl}${API_BASE}`)));

export type AppType = ReturnType<typeof apiRoutes>;

const BUSY_BODIES = new Map(LANGUAGES.map((language) => [`${apiBase(language)}/`, JSON.stringify({ message: translate(BUSY_MESSAGE, language) })]));
const BUSY_FHIR = JSON.stringify({ message: BUSY_MESSAGE });

/** The 503 body for a request the server sheds (`refuseEarly`), in its prefix's language; null for a path never shed. */
export const busyBodyFor = (url: string): string | null => {
  if (url.startsWith(`${FHIR_BASE}/`)) return BUSY_FHIR;
  const prefix = url.slice(0, url.indexOf("/", "/api/v1/".length) + 1);
  return BUSY_BODIES.get(prefix) ?? null;
};

/** The whole HTTP surface: security headers, request ids, the API, and the error handler. */
export const createHttpApp = (options: ApiOptions, mount?: (app: Hono<Env>) => void) => {
  const app = new Hono<Env>();
  // An X-Request-Id the caller (or its proxy) sent is kept, else one is made; it goes back in the answer.
  app.use("*", requestId());
  const observe = options.observe;
  if (observe) {
    app.use("*", async (c, next) => {
      const started = performance.now();
      await next();
      // After the chain, the route index is the handler's (or the middleware's) that answered.
      const route = matchedRoutes(c)[c.req.routeIndex]?.path ?? "";
      observe({ method: c.req.method, route, status: c.res.status, seconds: (performance.now() - started) / 1000, requestId: c.get("requestId") });
    });
  }
  // One bound for every API, Crown's and FHIR's: they share the event loop and the database pool.
  const shed = shedLoad(options.loadGate ?? new LoadGate());
  // The language first: even a 503 is answered in the prefix's language.
  for (const language of LANGUAGES) app.use(`${apiBase(language)}/*`, answerIn(language), shed);
  app.use(`${FHIR_BASE}/*`, shed);
  app.use(
    "*",
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        mediaSrc: ["'self'", "blob:"],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", "blob:"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
      },
      crossOriginEmbedderPolicy: false,
      permissionsPolicy: { camera: ["self"], microphone: [], geolocation: [] },
      // Sent below, and only over HTTPS: over plain HTTP it is meaningless, and wrong behind a TLS-less setup.
      strictTransportSecurity: false,
    }),
  );
  app.use("*", async (c, next) => {
    await next();
    if (options.servedOverHttps?.(c)) c.res.headers.set("strict-transport-security", HSTS);
  });
  const api = apiRoutes(options);
  for (const language of LANGUAGES) {
    app.route(apiBase(language), api);
    app.all(`${apiBase(language)}/*`, (c) => c.json({ message: HTTP_MESSAGES.notFound }, 404));
  }
  app.route(FHIR_BASE, fhirRoutes(options));
  mount?.(app);
  app.onError((error, c) => {
    if (error instanceof HttpFailure) return error.response;
    // No secret in a log: the path and the error are redacted (the verification link's token, any long random segment).
    options.log?.({ level: "error", requestId: c.get("requestId"), path: redactPath(c.req.path), error: redactText(String(error).slice(0, 2000)) });
    return c.json({ message: HTTP_MESSAGES.failed, request_id: c.get("requestId") }, 500);
  });
  return app;
};
