import { serve } from "@hono/node-server";
import type { ServerConfig } from "./config.ts";
import { composeServices, createServerApp } from "./compose.ts";
import { demoAccountsPath } from "./demo-accounts.ts";
import { seedDemo } from "./seed.ts";
import { startReportWorker } from "./reports.ts";
import { startChatWorker } from "./chat.ts";
import { startRecovery } from "./recovery.ts";

const log = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ at: new Date().toISOString(), ...line })}\n`);

/** Starts Crown: migrations, demo data on the embedded default (listening on 127.0.0.1 unless HOST is set), the HTTP server, and a clean stop on SIGTERM. */
export const startServer = async (config: ServerConfig) => {
  const services = await composeServices(config);
  const app = createServerApp(config, services, log);
  const embedded = services.database.kind === "pglite";
  // Demo accounts only ever on the embedded database (ADR 24); with DATABASE_URL there are none.
  const demo = embedded ? await seedDemo(services, config.dataDir) : [];
  // The analysis worker runs in the server unless CROWN_WORKER=off (then `pnpm crown worker` runs it).
  const worker = config.runWorker ? startReportWorker(services.database.db, services.run, log) : null;
  const recovery = config.runWorker ? startRecovery(config, services.database.db, services.run, log) : null;
  // Unseen chat messages are e-mailed by every server process; the claim makes each go once.
  const chatWorker = startChatWorker(services.run, log);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: process.env.HOST || (embedded ? "127.0.0.1" : "0.0.0.0") }, (info) => {
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
    server.close();
    await recovery?.stop();
    await worker?.stop();
    await chatWorker.stop();
    await services.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  return { server, services };
};
