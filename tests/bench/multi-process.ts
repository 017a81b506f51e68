// `pnpm bench:processes`: the multi-process trial (issue 42, item 3; ADR 0141) with more reports, printing its
// figures: reports analysed, duplicates, lost uploads, 5xx during the kills, time to recover, and what
// /metrics showed on each process mid-run (ADR 0142). Options: --parents N (default 4), --reports N per
// parent (default 5). Needs PostgreSQL at 127.0.0.1:5432 (or DATABASE_URL's server).
import { parseArgs } from "node:util";
import { postgresServerUrl } from "@crown/db/testing";
import { runMultiProcessScenario } from "../api/multi-process-scenario.ts";

const { values } = parseArgs({ options: { parents: { type: "string", default: "4" }, reports: { type: "string", default: "5" } } });
if ((await postgresServerUrl()) === null) {
  console.error("PostgreSQL is not reachable: the multi-process bench needs it.");
  process.exit(1);
}

const began = Date.now();
const say = (line: string) => console.log(`[+${((Date.now() - began) / 1000).toFixed(1).padStart(6)} s] ${line}`);
/** The lines of a metrics text worth a glance: the series the issue names, without the histogram buckets. */
const digest = (text: string) =>
  text
    .split("\n")
    .filter((l) => /^crown_(http_requests_total|http_request_duration_seconds_(sum|count)|http_requests_in_flight|http_requests_shed_total|jobs_|job_duration_seconds_(sum|count)|analysis_seconds_per_photo_(sum|count)|model_info|db_pool|process_nodejs_eventloop_lag_p99)/.test(l))
    .slice(0, 40);

const r = await runMultiProcessScenario({
  parents: Number(values.parents),
  reportsPerParent: Number(values.reports),
  say,
  onMetrics: (byProcess) => {
    for (const [name, text] of Object.entries(byProcess)) {
      console.log(`\n/metrics of ${name} (mid-run, a digest):`);
      for (const line of digest(text)) console.log(`  ${line}`);
    }
    console.log("");
  },
});

const analysed = r.analysisJobs.filter((j) => j.completed === 1).length;
const figures: Array<[string, string | number]> = [
  ["reports finalized", `${r.finalized} of ${r.total}`],
  ["reports analysed (one completed job each)", analysed],
  ["reports published once", r.versionsPerReport.filter((n) => n === 1).length],
  ["duplicates (reports made twice, photos measured twice, versions beyond one)", r.duplicateReports + r.measuredTwice + r.versionsPerReport.filter((n) => n > 1).length],
  ["lost (acknowledged uploads missing)", r.lost.length],
  ["5xx answers during the kills", r.kills.fiveHundredsDuring],
  ["5xx answers in all", r.fiveHundreds.length],
  ["client retries after a connection error", r.connectionErrors],
  ["analyses running at the kill", r.kills.activeJobsAtKill],
  ["killed API process ready again (s)", (r.kills.apiReadyMs / 1000).toFixed(1)],
  ["killed worker started again (s)", (r.kills.workerReadyMs / 1000).toFixed(1)],
  ["time to recover: kill to the last report published (s)", (r.kills.recoveredMs / 1000).toFixed(1)],
  ["kill to the job queue settled (a killed worker's job expired and retried) (s)", (r.kills.settledMs / 1000).toFixed(1)],
  ["live tabs missing an event / events repeated", `${r.live.missing.length} / ${r.live.repeated.length}`],
  ["live reconnects per tab", r.live.reconnects.join(" ")],
  ["sessions across processes (read on B, sign-out on B, then on A)", Object.values(r.sessions).join(" ")],
  ["wrong passwords alternating A/B until 429", r.wrongPasswordStatuses.join(" ")],
  ["SIGTERM: half-sent upload answered", r.drain.upload.status],
  ["SIGTERM: analysis running finished as", `${r.drain.busyAfter} (${r.drain.busyJob.map((j) => `${j.state}, retries ${j.retry_count}`).join("; ")})`],
  ["requests sent by the proxy per API port", JSON.stringify(r.proxySent)],
  ["failures", r.failures.length === 0 ? "none" : r.failures.join("; ")],
  ["wall time (s)", (r.wallMs / 1000).toFixed(1)],
];
console.log("\nMulti-process bench (2 API processes, 2 workers, PostgreSQL, s3rver, round-robin proxy):");
for (const [name, value] of figures) console.log(`  ${name.padEnd(78)} ${value}`);
const ok = r.failures.length === 0 && r.lost.length === 0 && r.fiveHundreds.length === 0 && analysed === r.total && r.duplicateReports === 0 && r.measuredTwice === 0 && r.live.missing.length === 0;
process.exit(ok ? 0 : 1);
