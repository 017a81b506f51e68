import { readFileSync } from "node:fs";
import path from "node:path";
import { Effect, Layer, ManagedRuntime } from "effect";
import type { Context, Hono } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";
import { serveStatic } from "@hono/node-server/serve-static";
import { AccountsConfig, answerKeyFrom, defaultAccountsSettings, onboardingHooksLayer, QuizAnswerKey } from "@crown/core";
import { cryptoLayer, loadOrCreateServerSecret, secondFactorCryptoLayer } from "@crown/crypto";
import { connectDatabase, type Database, makeDatabaseLayer, migrateToLatest, readPgliteTemplate } from "@crown/db";
import { type Kysely, sql } from "kysely";
import { type ApiOptions, createHttpApp, type Env, LoadGate } from "@crown/http";
import { mailLayerFromEnv } from "@crown/mail";
import { pendingBlobsLayer, setFilesLayer, storageLayerFromEnv, zipArchiveLayer } from "@crown/storage";
import { deviceNamesLayer } from "@crown/http/device-names";
import type { ServerConfig } from "./config.ts";
import { mountModelAssets, staticCacheControl } from "./static-assets.ts";
import { KIOSK_DIST, PGLITE_TEMPLATE, QUIZ_POOL_FILE, WEB_DIST } from "./paths.ts";
import { chatConfigLayer, liveFeedLayer, liveHubFor } from "./chat.ts";
import { fhirLayer } from "./fhir.ts";
import { makeModelRuntime } from "@crown/inference";
import { loadModel, pipelineStatus, type PipelineModel, reportPipelineLayer, uploadHistoryLayer } from "./reports.ts";

export { QUIZ_POOL_FILE, repoRoot } from "./paths.ts";
export const loadQuizAnswerKey = (file = QUIZ_POOL_FILE) => answerKeyFrom(JSON.parse(readFileSync(file, "utf8")));

export interface ConnectedDatabase {
  readonly db: Kysely<Database>;
  readonly kind: "postgres" | "pglite";
  readonly close: () => Promise<void>;
  /** PostgreSQL: the URL, for the live events' LISTEN connection. */
  readonly url?: string | undefined;
  /** PostgreSQL: the pool's connections now (metrics). */
  readonly poolStats?: (() => { total: number; idle: number; waiting: number }) | undefined;
  /** PGlite: the embedded database, for its own LISTEN. */
  readonly pglite?: Parameters<typeof liveHubFor>[0]["pglite"];
}

/**
 * Every port of core bound to its adapter for this configuration: the composition root.
 * Tests pass a database of their own (created and dropped per run).
 */
export const composeServices = async (config: ServerConfig, given?: ConnectedDatabase, givenModel?: PipelineModel) => {
  const database =
    given ??
    (await connectDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      preparedStatements: config.preparedStatements,
      embeddedTemplate: () => readPgliteTemplate(PGLITE_TEMPLATE),
    }));
  await migrateToLatest(database.db);
  // Live events from every process reach the streams open in this one.
  const hub = liveHubFor({ url: given ? given.url : config.databaseUrl, pglite: (database as ConnectedDatabase).pglite }, (line) => console.error(JSON.stringify(line)));
  await hub.start();
  const secret = await loadOrCreateServerSecret(config.dataDir);
  const loaded = givenModel ?? (await loadModel());
  // Installed models' sessions (shadow, promoted), opened on first use and closed with the services.
  const modelRuntime = makeModelRuntime();
  const ports = Layer.mergeAll(
    makeDatabaseLayer(database.db),
    cryptoLayer(secret),
    secondFactorCryptoLayer(secret, config.publicUrl),
    storageLayerFromEnv({ dataDir: config.dataDir, s3: config.s3 }),
    setFilesLayer,
    pendingBlobsLayer(database.db, config.leaseSeconds, (line) => console.error(JSON.stringify(line))),
    mailLayerFromEnv({ dataDir: config.dataDir, smtpUrl: config.smtpUrl, from: config.mailFrom }),
    Layer.succeed(AccountsConfig, AccountsConfig.make({ ...defaultAccountsSettings(config.publicUrl), passwordMaxAgeDays: config.passwordMaxAgeDays })),
    Layer.succeed(QuizAnswerKey, loadQuizAnswerKey()),
    chatConfigLayer(config),
    liveFeedLayer(hub),
    reportPipelineLayer(database.db, loaded.model, loaded.analyze, loaded.measurementError, modelRuntime),
    fhirLayer(config.publicUrl),
    deviceNamesLayer,
  );
  // Onboarding reacts to accepted invitations (notifications, caregiver activation) inside their transaction;
  // reminders read the last uploads from the reports.
  // The family data export's zip writer streams into whichever blob store was chosen.
  const layer = Layer.provideMerge(Layer.mergeAll(onboardingHooksLayer, uploadHistoryLayer, zipArchiveLayer), ports);
  const runtime = ManagedRuntime.make(layer);
  return {
    database: { ...database, ping: () => sql`select 1`.execute(database.db).then(() => undefined) },
    runtime,
    /** The model measuring here, if any (its name and card version for the metrics). */
    model: loaded.model,
    /** What the report pipeline cannot do here (no ffmpeg, no model), said at start. */
    pipeline: pipelineStatus(loaded.problem),
    /** Runs an effect with every service; for the CLI and seeds. */
    run: <A, E>(effect: Effect.Effect<A, E, Layer.Layer.Success<typeof layer>>) => runtime.runPromise(effect),
    close: async () => {
      await runtime.dispose();
      await hub.stop();
      await loaded.model?.close?.();
      await modelRuntime.close();
      await database.close();
    },
  };
};
export type Services = Awaited<ReturnType<typeof composeServices>>;

const relativeToCwd = (dir: string) => path.relative(process.cwd(), dir) || ".";

/**
 * Serves a built single-page app under `prefix`, falling back to its index.html for client routes.
 * `crown build` wrote a brotli and a gzip copy beside each file: the browser gets the one it accepts.
 */
const mountSpa = (app: Hono<Env>, prefix: string, dir: string) => {
  const root = relativeToCwd(dir);
  const strip = prefix === "/" ? undefined : (p: string) => p.slice(prefix.length - 1);
  const onFound = (file: string, c: Context<Env>) => {
    c.header("cache-control", staticCacheControl(file));
  };
  app.use(`${prefix}*`, serveStatic({ root, precompressed: true, onFound, ...(strip ? { rewriteRequestPath: strip } : {}) }));
  app.get(`${prefix}*`, serveStatic({ root, path: "index.html", precompressed: true, onFound }));
};

/** The load shedding's state for one server (ADR 0090): the Hono middleware and the early refusal share it. */
export const loadGateFor = (config: ServerConfig) =>
  new LoadGate({ maxInFlight: config.maxInFlight, minInFlight: Math.min(config.minInFlight, config.maxInFlight), retryAfterSeconds: 1 });

/** The last entry of a comma-separated header that proxies append to. */
const lastListEntry = (header: string | undefined) => header?.split(",").at(-1)?.trim() || undefined;

export const createServerApp = (
  config: ServerConfig,
  services: Services,
  log: (line: Record<string, unknown>) => void,
  loadGate: LoadGate = loadGateFor(config),
  observe?: ApiOptions["observe"],
) =>
  createHttpApp(
    {
      ...(observe ? { observe } : {}),
      runtime: services.runtime,
      publicUrl: config.publicUrl,
      loadGate,
      publicConfig: {
        // Addresses are sent only when set, so the portal never shows a link to nowhere (nor to an example address).
        ...(config.buyKitsUrl ? { buy_kits_url: config.buyKitsUrl } : {}),
        ...(config.webinarUrl ? { webinar_url: config.webinarUrl } : {}),
        ...(config.socialSignIn.google ? { google_sign_in_url: config.socialSignIn.google } : {}),
        ...(config.socialSignIn.apple ? { apple_sign_in_url: config.socialSignIn.apple } : {}),
        ...(config.socialSignIn.facebook ? { facebook_sign_in_url: config.socialSignIn.facebook } : {}),
        ...(config.appStoreUrl ? { app_store_url: config.appStoreUrl } : {}),
        ...(config.playStoreUrl ? { play_store_url: config.playStoreUrl } : {}),
        ...(config.helpVideoUrl ? { help_video_url: config.helpVideoUrl } : {}),
      },
      log,
      servedOverHttps: (c) => (config.trustProxy ? lastListEntry(c.req.header("x-forwarded-proto"))?.toLowerCase() === "https" : new URL(c.req.url).protocol === "https:"),
      clientIp: (c) => {
        if (config.trustProxy) {
          // The rightmost entry is the one our proxy appended; anything left of it the client wrote itself.
          const forwarded = lastListEntry(c.req.header("x-forwarded-for"));
          if (forwarded) return forwarded;
        }
        try {
          return getConnInfo(c).remote.address ?? null;
        } catch {
          return null;
        }
      },
    },
    (app) => {
      app.get("/healthz", (c) => c.json({ status: "ok" }));
      app.get("/readyz", async (c) => {
        try {
          await services.database.ping();
          return c.json({ status: "ready" });
        } catch {
          return c.json({ status: "unavailable" }, 503);
        }
      });
      mountModelAssets(app, undefined, path.join(process.env.CROWN_WEB_DIST ?? WEB_DIST, "ort"));
      mountSpa(app, "/kiosk/", KIOSK_DIST);
      // CROWN_WEB_DIST: a snapshot of the built portal (browser tests pin one while others rebuild).
      mountSpa(app, "/", process.env.CROWN_WEB_DIST ?? WEB_DIST);
    },
  );
