import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, postgresServerUrl, type TestDatabase } from "@crown/db/testing";
import { listJobs } from "@crown/jobs";
import { readOutbox } from "@crown/mail";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type CrownProcess, repoRoot, spawnCrown, startCrown, stopCrown, waitUntil, processApi } from "./crown-processes.ts";
import { finalizedPhotoReport } from "./report-fixtures.ts";
import { crownCommand } from "../crown-command.ts";

/**
 * Scale-out: the server with CROWN_WORKER=off and `pnpm crown worker` as a process of its own, on
 * one PostgreSQL database. The server never runs a job; the worker process analyses what the
 * server finalized, and sends the e-mails the server queued.
 */

const adminUrl = await postgresServerUrl();
const PASSWORD = "Sunny-day-42";
const SECRET = `worker-secret-${randomBytes(8).toString("hex")}`;

const spawnWorkerTest = (args: string[], env: Record<string, string>) => spawnCrown(args, { ...env, CROWN_SECRET: SECRET }, "crown-worker-");

describe.skipIf(adminUrl === null)("`crown worker` beside a server with CROWN_WORKER=off, on one PostgreSQL", () => {
  let database: TestDatabase;
  let server: CrownProcess | undefined;
  let worker: CrownProcess | undefined;
  let url: string;

  const { api, signIn } = processApi(() => url, PASSWORD);

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const env = { ...process.env, DATABASE_URL: database.url!, CROWN_SECRET: SECRET, CROWN_DATA_DIR: mkdtempSync(path.join(tmpdir(), "crown-worker-cli-")) };
    for (const [role, email] of [
      ["parent", "parent@worker.test"],
      ["reviewer", "reviewer@worker.test"],
    ] as const) {
      const r = spawnSync(...crownCommand(["user:create", "--role", role, "--email", email, "--password", PASSWORD]), { cwd: repoRoot, env, encoding: "utf8" });
      if (r.status !== 0) throw new Error(`user:create failed: ${r.stdout}\n${r.stderr}`);
    }
    const started = await startCrown({ DATABASE_URL: database.url!, CROWN_SECRET: SECRET, CROWN_WORKER: "off" }, "crown-worker-");
    server = started;
    url = started.url;
  }, 240_000);

  afterAll(async () => {
    await Promise.all([stopCrown(server), stopCrown(worker)]);
    await database?.drop();
  }, 60_000);

  test("a report finalized through the server stays submitted until the worker process analyses it; the worker sends the e-mail the server queued", async () => {
    expect(server!.output()).toContain("no worker here (CROWN_WORKER=off)");
    const parentToken = await signIn("parent@worker.test");
    const reviewerToken = await signIn("reviewer@worker.test");
    const reportId = await finalizedPhotoReport(database.db, api, "parent@worker.test", parentToken);

    const status = async () => (await api("GET", `/report/${reportId}`, parentToken)).json.results.status as string;

    // The server runs no jobs: the analysis waits in the queue.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await status()).toBe("submitted");
    const queued = (await listJobs(database.db, "analyze-report")).filter((j) => j.payload.reportId === reportId);
    expect(queued.map((j) => j.state)).toEqual(["created"]);

    worker = spawnWorkerTest(["worker"], { DATABASE_URL: database.url! });
    await waitUntil("the worker's analysis", worker, async () => (await status()) === "analyzed", 180_000);
    expect(worker.output()).toMatch(/worker started \(postgres/);
    expect(worker.output()).toMatch(/"msg":"job done".*"name":"analyze-report"/);
    const detail = await api("GET", `/review/report/${reportId}`, reviewerToken);
    expect(detail.json.results.attachments[0].measurement).not.toBeNull();

    // The recapture's e-mail is queued by the server and sent by the worker (its outbox, not the server's).
    expect((await api("POST", `/review/report/${reportId}/recapture`, reviewerToken, { reasons: ["Image is blurry"] })).status).toBe(200);
    await waitUntil("the worker's e-mail", worker, async () => (await readOutbox(worker!.dataDir)).some((m) => m.to.includes("parent@worker.test") && /new photos/.test(m.subject)), 60_000);
    expect((await readOutbox(server!.dataDir)).filter((m) => /new photos/.test(m.subject))).toEqual([]);
  });
});
