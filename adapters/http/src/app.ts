import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import type { ManagedRuntime } from "effect";
import type { Env } from "./env.ts";
import { HttpFailure } from "./effect-bridge.ts";
import { openApiDocument } from "./openapi.ts";
import { redactPath, redactText } from "./redact.ts";
import { urlProblem } from "./request.ts";
import type { SessionPresenter } from "./presenters.ts";
import { accountsRoutes } from "./routes/accounts.ts";
import { adminRoutes } from "./routes/admin.ts";
import { chatRoutes } from "./routes/chat.ts";
import { kioskRoutes } from "./routes/kiosk.ts";
import { liveRoutes } from "./routes/live.ts";
import { onboardingRoutes } from "./routes/onboarding.ts";
import { notificationRoutes, practiceRoutes } from "./routes/practice.ts";
import { reportsRoutes } from "./routes/reports.ts";

export const API_BASE = "/api/v1/en";
const JSON_LIMIT = 1024 * 1024;

export interface ApiOptions {
  readonly runtime: ManagedRuntime.ManagedRuntime<any, never>;
  readonly presenter: SessionPresenter;
  /** Resolves the client address (the Node adapter's socket, or a trusted proxy header). */
  readonly clientIp: (c: import("hono").Context<Env>) => string | null;
  readonly publicUrl: string;
  readonly log?: (line: Record<string, unknown>) => void;
  /** Seconds between an event stream's session checks (default 15). */
  readonly liveCheckSeconds?: number;
  /** Public settings for the portal (GET /config): the external shop, webinar, app store and help video addresses. */
  readonly publicConfig?: Readonly<Record<string, string>>;
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
      // Uploads stream past this limit on their own routes; everything else is small JSON.
      if (c.req.header("content-type")?.includes("multipart/form-data")) return next();
      return bodyLimit({ maxSize: JSON_LIMIT, onError: (cx) => cx.json({ message: "The request body is too large." }, 413) })(c, next);
    })
    .route("/", accountsRoutes(options.presenter))
    .route("/", onboardingRoutes())
    .route("/", practiceRoutes())
    .route("/", notificationRoutes())
    .route("/", chatRoutes())
    .route("/", liveRoutes({ checkSeconds: options.liveCheckSeconds }))
    .route("/", reportsRoutes())
    .route("/", kioskRoutes())
    .route("/", adminRoutes())
    .get("/config", (c) => c.json({ message: "Configuration fetched successfully", results: options.publicConfig ?? {} }))
    .get("/openapi.json", (c) => c.json(openApiDocument(`${options.publicUrl}${API_BASE}`)));

export type AppType = ReturnType<typeof apiRoutes>;

/** The whole HTTP surface: security headers, request ids, the API, and the error handler. */
export const createHttpApp = (options: ApiOptions, mount?: (app: Hono<Env>) => void) => {
  const app = new Hono<Env>();
  app.use("*", requestId());
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
    }),
  );
  app.route(API_BASE, apiRoutes(options));
  app.all(`${API_BASE}/*`, (c) => c.json({ message: "Not found" }, 404));
  mount?.(app);
  app.onError((error, c) => {
    if (error instanceof HttpFailure) return error.response;
    // No secret in a log: the path and the error are redacted (the verification link's token, any long random segment).
    options.log?.({ level: "error", requestId: c.get("requestId"), path: redactPath(c.req.path), error: redactText(String(error).slice(0, 2000)) });
    return c.json({ message: "Something went wrong. Please try again.", request_id: c.get("requestId") }, 500);
  });
  return app;
};
