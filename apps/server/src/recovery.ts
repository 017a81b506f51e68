import { Effect } from "effect";
import { BlobStore } from "@crown/core";
import { type Kysely, sql } from "kysely";
import { analysisJobKey, ANALYZE_REPORT_JOB, awaitsAnalysis, giveUpAnalysis, statusesWhere } from "@crown/core/report/index";
import { JobQueue } from "@crown/core/shared/jobs";
import { ERASE_DUE_ACCOUNTS_JOB } from "@crown/core/family-data/index";
import type { Database } from "@crown/db";
import { forgetIdempotencyKeys } from "@crown/db";
import { IDEMPOTENCY_KEY_HOURS } from "@crown/core/shared/idempotency";
import { jobStatesByKey } from "@crown/jobs";
import { localBlobRoot, sweepPendingBlobs, sweepTemporaryFiles } from "@crown/storage";
import type { ServerConfig } from "./config.ts";
import type { PortsOf, Runner } from "./runner.ts";

/**
 * Recovery after a crash (ADR 0029), at start and then every RECOVERY_SECONDS in every process
 * that runs jobs: a report left `submitted` or `analyzing` whose analysis job is gone gets a new
 * one, and one whose job failed for good (its worker killed on the last attempt) goes to review
 * with the reason; the blobs of writers that died are removed (ADR 0051), and on local storage the
 * temporary files of cut writes; idempotency keys past their day go. A job still waiting or running (its worker beating) is left alone.
 * `CROWN_RECOVERY_SECONDS` sets the period (tests shorten it).
 */
export const RECOVERY_SECONDS = 30;
const LIVE_JOB_STATES = ["created", "retry", "active"];
const GAVE_UP = "the analysis job failed (its worker stopped)";

/** The ports recovery needs: giving up an analysis, the job queue, and the blob store. */
export type RecoveryPorts = PortsOf<typeof giveUpAnalysis> | JobQueue | BlobStore;

export const recoverAnalyses = async (db: Kysely<Database>, run: Runner<RecoveryPorts>) => {
  // Waiting for their analysis: the lifecycle's answer (submitted, or analyzing when a worker died).
  const waiting = sql.join(statusesWhere(awaitsAnalysis));
  const stuck = (await sql<{ id: string; round: number }>`select id, round from reports where status in (${waiting})`.execute(db)).rows;
  if (stuck.length === 0) return { requeued: 0, failed: 0 };
  const jobs = await jobStatesByKey(db, ANALYZE_REPORT_JOB);
  let requeued = 0;
  let failed = 0;
  for (const report of stuck) {
    const key = analysisJobKey(report.id, report.round);
    const states = jobs.get(key) ?? [];
    if (states.some((s) => LIVE_JOB_STATES.includes(s))) continue;
    if (states.includes("failed")) {
      await run(giveUpAnalysis(report.id, GAVE_UP));
      failed += 1;
    } else {
      await run(Effect.flatMap(JobQueue, (q) => q.enqueue({ name: ANALYZE_REPORT_JOB, payload: { reportId: report.id, round: report.round }, key })));
      requeued += 1;
    }
  }
  return { requeued, failed };
};

/**
 * Blobs their writer held pending (ADR 0051) whose writer's lease lapsed: an upload or a publish
 * whose process died before the transaction that names them. Removed through the blob store, so
 * local files and S3 alike.
 */
export const sweepAbandonedBlobs = (db: Kysely<Database>, run: Runner<RecoveryPorts>, leaseSeconds: number) =>
  sweepPendingBlobs(db, (key) => run(Effect.flatMap(BlobStore, (blobs) => blobs.remove(key))), leaseSeconds);

/**
 * The data-rights schedule (issue 44): each round queues the job that erases accounts past their
 * grace period and removes lapsed export archives. One key: a round while one waits is a no-op,
 * and a worker that dies mid-run leaves the job to pg-boss's retry.
 */
export const scheduleDataRights = (run: Runner<RecoveryPorts>) =>
  run(Effect.flatMap(JobQueue, (q) => q.enqueue({ name: ERASE_DUE_ACCOUNTS_JOB, payload: {}, key: ERASE_DUE_ACCOUNTS_JOB, maxAttempts: 3 })));

/** Starts the recovery loop; `stop` ends it. */
export const startRecovery = (
  config: Pick<ServerConfig, "dataDir" | "s3" | "leaseSeconds" | "recoverySeconds">,
  db: Kysely<Database>,
  run: Runner<RecoveryPorts>,
  log: (line: Record<string, unknown>) => void,
) => {
  let running: Promise<void> = Promise.resolve();
  const once = async () => {
    try {
      const outcome = await recoverAnalyses(db, run);
      if (outcome.requeued + outcome.failed > 0) log({ level: "warn", msg: "recovered stuck analyses", ...outcome });
      await scheduleDataRights(run);
      const abandoned = await sweepAbandonedBlobs(db, run, config.leaseSeconds);
      if (abandoned > 0) log({ level: "info", msg: "removed blobs whose writer died before recording them", removed: abandoned });
      // Idempotency keys are kept a day (ADR 0141).
      await forgetIdempotencyKeys(db, IDEMPOTENCY_KEY_HOURS);
      if (!config.s3) {
        const removed = await sweepTemporaryFiles(localBlobRoot(config.dataDir));
        if (removed > 0) log({ level: "info", msg: "removed temporary blob files of cut writes", removed });
      }
    } catch (error) {
      log({ level: "error", msg: "recovery failed", error: String((error as Error)?.message ?? error).slice(0, 300) });
    }
  };
  running = once();
  const timer = setInterval(() => {
    running = running.then(once);
  }, config.recoverySeconds * 1000);
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
};
