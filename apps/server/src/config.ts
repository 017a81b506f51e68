import path from "node:path";
import { LEASE_SECONDS } from "@crown/storage";
import { DEFAULT_LOAD_LIMIT } from "@crown/http";
import { RECOVERY_SECONDS } from "./recovery.ts";

/** How long a stopping server waits for the requests it admitted (`CROWN_DRAIN_SECONDS`, ADR 0141). */
export const DRAIN_SECONDS = 25;

/** The environment of api-contract.md, with its defaults. */
export interface ServerConfig {
  readonly port: number;
  readonly dataDir: string;
  readonly publicUrl: string;
  readonly databaseUrl: string | undefined;
  /** Named prepared statements on PostgreSQL (`DATABASE_PREPARED_STATEMENTS=off` behind a pooler that drops them). */
  readonly preparedStatements: boolean;
  readonly s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string } | undefined;
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string | undefined;
  readonly trustProxy: boolean;
  /** Run the background worker inside the server process (default) or leave it to `crown worker`. */
  readonly runWorker: boolean;
  readonly passwordMaxAgeDays: number;
  /** Chat messages left unread this long are e-mailed to the other side (`CHAT_EMAIL_DELAY_SECONDS`, default 15 minutes). */
  readonly chatEmailDelaySeconds: number;
  /** The practice's kit shop and the webinar booking page (`BUY_KITS_URL`, `WEBINAR_URL`); unset, Buy Kits and Webinar show Crown's own pages. */
  readonly buyKitsUrl: string | undefined;
  readonly webinarUrl: string | undefined;
  /** Where each social sign-in button leads (`GOOGLE_SIGN_IN_URL`, `APPLE_SIGN_IN_URL`, `FACEBOOK_SIGN_IN_URL`); the login page shows only the set ones. */
  readonly socialSignIn: { readonly google: string | undefined; readonly apple: string | undefined; readonly facebook: string | undefined };
  /** Mobile app store pages (`APP_STORE_URL`, `PLAY_STORE_URL`); the portal shows a badge only for a set one. */
  readonly appStoreUrl: string | undefined;
  readonly playStoreUrl: string | undefined;
  /** A video on finding the referral code (`HELP_VIDEO_URL`); unset, the portal links its own help page. */
  readonly helpVideoUrl: string | undefined;
  /** A process's lease on the blobs it is writing lapses after this many seconds without renewal (`CROWN_LEASE_SECONDS`, ADR 0051). */
  readonly leaseSeconds: number;
  /** How often crash recovery runs in a process with the worker (`CROWN_RECOVERY_SECONDS`, ADR 0029). */
  readonly recoverySeconds: number;
  /** API requests in progress at most before new ones get 503 with Retry-After (`CROWN_MAX_IN_FLIGHT`, default 32 per core). */
  readonly maxInFlight: number;
  /** The lowest that bound falls to while the event loop is saturated (`CROWN_MIN_IN_FLIGHT`, default 2 per core; ADR 0100). */
  readonly minInFlight: number;
  /** Open connections at most; more are dropped at accept (`CROWN_MAX_CONNECTIONS`, default 4096). */
  readonly maxConnections: number;
  /** On SIGTERM, how long the requests already admitted may take to finish (`CROWN_DRAIN_SECONDS`, default 25; ADR 0141). */
  readonly drainSeconds: number;
  /** Prometheus `/metrics` on this port (`METRICS_PORT`; unset: not served) and address (`METRICS_HOST`, default 127.0.0.1); ADR 0142. */
  readonly metricsPort: number | undefined;
  readonly metricsHost: string;
  /** One JSON line per answered request (`CROWN_ACCESS_LOG=off` leaves them out). */
  readonly accessLog: boolean;
}

const int = (value: string | undefined, fallback: number) => {
  const n = value === undefined || value === "" ? Number.NaN : Number.parseInt(value, 10);
  return Number.isFinite(n) ? n : fallback;
};

export const readConfig = (env: NodeJS.ProcessEnv = process.env): ServerConfig => {
  const port = int(env.PORT, 8080);
  const s3 = env.S3_ENDPOINT
    ? { endpoint: env.S3_ENDPOINT, accessKey: env.S3_ACCESS_KEY ?? "", secretKey: env.S3_SECRET_KEY ?? "", bucket: env.S3_BUCKET ?? "crown" }
    : undefined;
  return {
    port,
    dataDir: path.resolve(env.CROWN_DATA_DIR ?? "./.crown-data"),
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ""),
    databaseUrl: env.DATABASE_URL || undefined,
    preparedStatements: env.DATABASE_PREPARED_STATEMENTS !== "off",
    s3,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || undefined,
    trustProxy: env.TRUST_PROXY === "1" || env.TRUST_PROXY === "true",
    runWorker: env.CROWN_WORKER !== "off",
    passwordMaxAgeDays: int(env.PASSWORD_MAX_AGE_DAYS, 365),
    chatEmailDelaySeconds: int(env.CHAT_EMAIL_DELAY_SECONDS, 15 * 60),
    buyKitsUrl: env.BUY_KITS_URL || undefined,
    webinarUrl: env.WEBINAR_URL || undefined,
    socialSignIn: { google: env.GOOGLE_SIGN_IN_URL || undefined, apple: env.APPLE_SIGN_IN_URL || undefined, facebook: env.FACEBOOK_SIGN_IN_URL || undefined },
    appStoreUrl: env.APP_STORE_URL || undefined,
    playStoreUrl: env.PLAY_STORE_URL || undefined,
    helpVideoUrl: env.HELP_VIDEO_URL || undefined,
    leaseSeconds: Math.max(1, int(env.CROWN_LEASE_SECONDS, LEASE_SECONDS)),
    recoverySeconds: Math.max(1, int(env.CROWN_RECOVERY_SECONDS, RECOVERY_SECONDS)),
    maxInFlight: Math.max(1, int(env.CROWN_MAX_IN_FLIGHT, DEFAULT_LOAD_LIMIT.maxInFlight)),
    minInFlight: Math.max(1, int(env.CROWN_MIN_IN_FLIGHT, DEFAULT_LOAD_LIMIT.minInFlight)),
    maxConnections: Math.max(1, int(env.CROWN_MAX_CONNECTIONS, 4096)),
    drainSeconds: Math.max(0, int(env.CROWN_DRAIN_SECONDS, DRAIN_SECONDS)),
    metricsPort: env.METRICS_PORT ? int(env.METRICS_PORT, 0) : undefined,
    metricsHost: env.METRICS_HOST || "127.0.0.1",
    accessLog: env.CROWN_ACCESS_LOG !== "off",
  };
};
