import { readConfig } from "../config.ts";
import { composeServices } from "../compose.ts";
import { startRecovery } from "../recovery.ts";
import { startReportWorker } from "../reports.ts";

import { log } from "../log.ts";
import { serveMetrics, watchDatabase, watchModel } from "../metrics.ts";
import { stopTelemetry } from "../telemetry.ts";

/** `pnpm crown worker`: the job worker on its own (the server then runs with CROWN_WORKER=off). Stops cleanly on SIGTERM. */
export const runWorkerCommand = async (): Promise<number> => {
  const config = readConfig();
  const services = await composeServices(config);
  if (services.pipeline.ffmpeg) log({ level: "warn", msg: `videos cannot be analysed: ${services.pipeline.ffmpeg}` });
  if (services.pipeline.model) log({ level: "warn", msg: `photos cannot be measured automatically: ${services.pipeline.model}` });
  const concurrency = Number.parseInt(process.env.CROWN_WORKER_CONCURRENCY ?? "1", 10) || 1;
  if (config.metricsPort !== undefined) {
    watchDatabase(services.database.db, services.database.poolStats);
    watchModel(services.model?.identity);
    await serveMetrics(config.metricsPort, config.metricsHost);
  }
  const worker = startReportWorker(services.database.db, services.run, log, { concurrency });
  const recovery = startRecovery(config, services.database.db, services.run, log);
  log({ level: "info", msg: `worker started (${services.database.kind}, concurrency ${concurrency})` });
  await new Promise<void>((resolve) => {
    // Kept for every signal, not once: a second SIGTERM (from the process group and again from tsx or pnpm
    // relaying it) would otherwise end the process at once, cutting the job being finished (ADR 0141).
    const stop = () => resolve();
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  log({ level: "info", msg: "worker stopping" });
  await recovery.stop();
  await worker.stop();
  await services.close();
  await stopTelemetry();
  return 0;
};
