// Results-page reads while sign-ins hash passwords (issue 16, item 5; ADR 0030). Prints the p50/p99 of
// `POST /report/parent-results` alone, then with SIGNIN_CONCURRENCY sign-ins running without pause
// beside it, and the ratio. Run with
//   pnpm vitest bench --run --project unit+integration tests/bench/signin-load.bench.ts
// BENCH_DB=postgres to use PostgreSQL instead of PGlite.
import { bench, describe } from "vitest";
import { b64, PASSWORD } from "../api/harness.ts";
import { startReportServer } from "../api/report-fixtures.ts";

const READS = Number(process.env.BENCH_READS ?? 300);
const SIGNIN_CONCURRENCY = Number(process.env.BENCH_SIGNINS ?? 16);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

describe("sign-in load", () => {
  bench(
    "results-page reads with and without a parallel sign-in load",
    async () => {
      const s = await startReportServer(process.env.BENCH_DB === "postgres" ? "postgres" : "pglite", { worker: false });
      try {
        const parent = await s.user("parent");
        const baby = await s.baby(parent.id, null);
        await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token);
        // Parents sign in with the password alone; staff would answer a second step (issue 44), each with
        // a one-time code a sustained load would spend. The password hash, the load measured, is the same.
        const signers = await Promise.all(Array.from({ length: 4 }, () => s.user("parent")));

        const reads = async () => {
          const times: number[] = [];
          for (let i = 0; i < READS; i++) {
            const started = performance.now();
            const r = await s.post("/report/parent-results", { per_page: 10 }, parent.token);
            if (r.status !== 200) throw new Error(`read: ${r.status}`);
            times.push(performance.now() - started);
          }
          return times.sort((a, b) => a - b);
        };
        await reads(); // warm-up
        const alone = await reads();

        let stop = false;
        let signIns = 0;
        // A refused (429) sign-in hashes nothing: counted apart, so the load the figure claims is the load that ran.
        let refused = 0;
        const load = Array.from({ length: SIGNIN_CONCURRENCY }, async (_, i) => {
          while (!stop) {
            const who = signers[i % signers.length]!;
            const r = await s.post("/user/sign-in", { email: who.email, password: b64(PASSWORD), device_type: "web" });
            if (r.status !== 200 && r.status !== 429) throw new Error(`sign-in: ${r.status}`);
            if (r.status === 200) signIns += 1;
            else refused += 1;
          }
        });
        const loadStarted = performance.now();
        const loaded = await reads();
        stop = true;
        await Promise.all(load);
        const seconds = (performance.now() - loadStarted) / 1000;

        const row = (name: string, t: number[]) => `${name.padEnd(26)} p50 ${percentile(t, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(t, 99).toFixed(1).padStart(7)} ms`;
        console.log(
          [
            `results-page reads (${READS} each), ${SIGNIN_CONCURRENCY} sign-ins at once during the second run (${(signIns / seconds).toFixed(1)} sign-ins/s hashed, ${refused} refused by the rate limit):`,
            row("alone", alone),
            row("with sign-in load", loaded),
            `ratio (loaded / alone)     p50 ${(percentile(loaded, 50) / percentile(alone, 50)).toFixed(2)}x   p99 ${(percentile(loaded, 99) / percentile(alone, 99)).toFixed(2)}x`,
          ].join("\n"),
        );
      } finally {
        await s.close();
      }
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});
