import { promises as fs } from "node:fs";
import path from "node:path";
import { Effect } from "effect";
import { type Kysely, sql } from "kysely";
import { analysisJobKey, ANALYZE_REPORT_JOB, awaitsAnalysis, giveUpAnalysis, statusesWhere } from "@crown/core/report/index";
import { JobQueue } from "@crown/core/shared/jobs";
import type { Database } from "@crown/db";
import { jobStatesByKey } from "@crown/jobs";
import { localBlobRoot, sweepTemporaryFiles } from "@crown/storage";
import type { ServerConfig } from "./config.ts";

/**
 * Recovery after a crash (ADR 0029), at start and then every RECOVERY_SECONDS in every process
 * that runs jobs: a report left `submitted` or `analyzing` whose analysis job is gone gets a new
 * one, and one whose job failed for good (its worker killed on the last attempt) goes to review
 * with the reason; temporary blob files of cut writes are removed. A job still waiting or running
 * (its worker beating) is left alone.
 */
export const RECOVERY_SECONDS = 30;
const LIVE_JOB_STATES = ["created", "retry", "active"];
const GAVE_UP = "the analysis job failed (its worker stopped)";

export const recoverAnalyses = async (db: Kysely<Database>, run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>) => {
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
 * Whole attachment blobs that no attachment row names: an upload whose process died before the one
 * transaction that records its files (ADR 28). A blob of an upload still streaming elsewhere is not
 * named yet either, so only those not written to for ORPHAN_IDLE_MS (longer than any upload) go.
 * Local files only (the S3 store would need a listing).
 */
export const ORPHAN_IDLE_MS = 6 * 60 * 60 * 1000;
export const sweepOrphanAttachments = async (db: Kysely<Database>, blobRoot: string, idleMs = ORPHAN_IDLE_MS) => {
  const dir = path.join(blobRoot, "attachments");
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const old: string[] = [];
  for (const name of names) {
    if (name.startsWith(".") || name.endsWith(".meta.json")) continue;
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (stat?.isFile() && Date.now() - stat.mtimeMs >= idleMs) old.push(`attachments/${name}`);
  }
  if (old.length === 0) return 0;
  const named = new Set((await sql<{ blob_key: string }>`select blob_key from attachments where blob_key in (${sql.join(old)})`.execute(db)).rows.map((r) => r.blob_key));
  let removed = 0;
  for (const key of old.filter((k) => !named.has(k))) {
    await fs.rm(path.join(blobRoot, key), { force: true });
    await fs.rm(path.join(blobRoot, `${key}.meta.json`), { force: true });
    removed += 1;
  }
  return removed;
};

/** Starts the recovery loop; `stop` ends it. */
export const startRecovery = (
  config: Pick<ServerConfig, "dataDir" | "s3">,
  db: Kysely<Database>,
  run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>,
  log: (line: Record<string, unknown>) => void,
) => {
  let running: Promise<void> = Promise.resolve();
  const once = async () => {
    try {
      const outcome = await recoverAnalyses(db, run);
      if (outcome.requeued + outcome.failed > 0) log({ level: "warn", msg: "recovered stuck analyses", ...outcome });
      if (!config.s3) {
        const removed = await sweepTemporaryFiles(localBlobRoot(config.dataDir));
        if (removed > 0) log({ level: "info", msg: "removed temporary blob files of cut writes", removed });
        const orphans = await sweepOrphanAttachments(db, localBlobRoot(config.dataDir));
        if (orphans > 0) log({ level: "info", msg: "removed attachment blobs no upload recorded", removed: orphans });
      }
    } catch (error) {
      log({ level: "error", msg: "recovery failed", error: String((error as Error)?.message ?? error).slice(0, 300) });
    }
  };
  running = once();
  const timer = setInterval(() => {
    running = running.then(once);
  }, RECOVERY_SECONDS * 1000);
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
};
