import { postgresServerUrl } from "@crown/db/testing";
import { describe, expect, test } from "vitest";
import { runMultiProcessScenario } from "./multi-process-scenario.ts";

/**
 * Issue 42, item 3 (ADR 0141): 2 API processes and 2 workers on one PostgreSQL and one S3 server behind a
 * round-robin proxy; one API process and one worker killed with SIGKILL mid-run and started again; then
 * SIGTERM to an API process with an upload in flight and to the workers with an analysis running. The
 * bench form, with more reports and its figures printed, is tests/bench/multi-process.ts.
 */
const adminUrl = await postgresServerUrl();

describe.skipIf(adminUrl === null)("several API processes and workers, SIGKILL and SIGTERM mid-run", () => {
  test("every report analysed and published once, no acknowledged upload lost, no 5xx, live events on both processes, drains on SIGTERM", async () => {
    const began = Date.now();
    const r = await runMultiProcessScenario({ parents: 3, reportsPerParent: 3, say: (line) => console.log(`[multi-process +${((Date.now() - began) / 1000).toFixed(1)} s] ${line}`) });
    const summary = JSON.stringify({ ...r, metrics: undefined }, null, 1);
    expect(r.failures, summary).toEqual([]);
    expect(r.finalized).toBe(r.total);
    expect(r.statuses).toEqual({ published: r.total });
    expect(r.published).toBe(r.total);
    // Analysed exactly once: one completed analysis job per report, no photo measured twice; published once.
    expect(r.analysisJobs).toHaveLength(r.total);
    expect(r.analysisJobs.every((j) => j.completed === 1)).toBe(true);
    expect(r.measuredTwice).toBe(0);
    expect(r.versionsPerReport).toEqual(Array.from({ length: r.total }, () => 1));
    // No retried prepare made a second report; every upload the client saw acknowledged is in the database and the bucket.
    expect(r.duplicateReports).toBe(0);
    expect(r.acknowledged).toBe(r.total);
    expect(r.lost).toEqual([]);
    // No answer was a 5xx, during the kills or ever; the kill was mid-run.
    expect(r.fiveHundreds).toEqual([]);
    expect(r.kills.at).toBeGreaterThan(0);
    // Sessions are the database's: made on A, read and ended on B, gone on A.
    expect(r.sessions).toEqual({ readOnOther: 200, signOutOnOther: 200, afterSignOut: 401 });
    // Failed sign-ins counted across both processes: slowed after 5 of them (per-process counters would allow 10).
    expect(r.wrongPasswordStatuses).toContain(429);
    expect(r.wrongPasswordStatuses.indexOf(429)).toBeLessThanOrEqual(7);
    expect(r.wrongPasswordStatuses.slice(0, r.wrongPasswordStatuses.indexOf(429)).every((s) => s === 422)).toBe(true);
    // Live events reached every tab, on whichever process it was, each event once.
    expect(r.live.missing).toEqual([]);
    expect(r.live.repeated).toEqual([]);
    // SIGTERM: the upload apiB had admitted was answered and kept; apiB said it stopped; new calls went to apiA.
    expect(r.drain.upload.status, JSON.stringify(r.drain.upload.json)).toBe(200);
    expect(r.drain.upload.json.results.attachments).toHaveLength(1);
    expect(r.drain.duringDrain).toBe(200);
    expect(r.drain.apiBSaidStopping).toBe(true);
    // Its event streams were cut at once (the tabs came back through the proxy), not waited for.
    expect(r.drain.apiBLeftUnfinished).toBe(false);
    expect(r.drain.tabsCutAndBack).toBe(true);
    // ... and the analysis running when both workers got SIGTERM finished, on its first attempt.
    expect([r.drain.manyPhotos, r.drain.busyFinalized]).toEqual([200, 200]);
    expect(r.drain.busyAfter, r.drain.workerOutputs.join("\n-----\n")).toBe("analyzed");
    expect(r.drain.busyJob).toEqual([{ state: "completed", retry_count: 0 }]);
    // Each process served its metrics mid-run (ADR 0142): the APIs their routes, every one the job queue.
    for (const api of [r.metrics.apiA, r.metrics.apiB]) expect(api).toMatch(/crown_http_requests_total\{method="[A-Z]+",route="\/api\/v1\/en\/[^"]+",status="\d{3}"\} \d+/);
    for (const text of Object.values(r.metrics)) expect(text).toMatch(/crown_jobs_waiting\{queue="analyze-report"\} \d+|crown_jobs_scrape 1/);
  }, 600_000);
});
