// The provider's Results page at clinic scale (issue 19, "Done when"; ADR 0072). Seeds PostgreSQL
// with generate_series (physicians with 100k, 10k and 1k published reports), starts a real
// `crown start` on it, and drives `POST /report/results?page=1` at a fixed 200 requests/s with
// autocannon on 127.0.0.1 only: p50/p99 per size, without and with a search term, then the same
// while a parallel sign-in load runs (argon2id), then an overload burst that must be answered 503
// within 100 ms. Every load run is bounded by a request count and a time limit. Run with
//   pnpm bench:results            (BENCH_SECONDS=10 per run, BENCH_RATE=200, BENCH_SIGNINS=10 per second)
// A script rather than a vitest bench: the runs last minutes (see static-and-start.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { Effect } from "effect";
import { makePasswordHasher } from "@crown/crypto/crypto";
import { connectPostgres } from "@crown/db/connect";
import { migrateToLatest } from "@crown/db/migrations/index";
import { seedScale } from "@crown/db/testing-scale";
import { CompiledQuery } from "kysely";
import { freePort, repoRoot } from "../e2e/helpers/server.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SIGNINS_PER_SECOND = Number(process.env.BENCH_SIGNINS ?? 10);
const SIZES = [1_000, 10_000, 100_000];
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const HOST = "127.0.0.1";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const ms = (n: number) => `${n.toFixed(1).padStart(7)} ms`;

const admin = async (statement: string) => {
  const connection = connectPostgres(ADMIN_URL, 1);
  try {
    await connection.db.executeQuery(CompiledQuery.raw(statement));
  } finally {
    await connection.close();
  }
};

/** `crown start` on the bench database (no web build needed: only the API is measured). */
const startServer = async (databaseUrl: string) => {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "crown-bench-results-"));
  let output = "";
  const child: ChildProcess = spawn("pnpm", ["crown", "start"], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), HOST, CROWN_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, CROWN_WORKER: "off", TRUST_PROXY: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", (d) => (output += String(d)));
  child.stderr?.on("data", (d) => (output += String(d)));
  const base = `http://${HOST}:${port}`;
  const deadline = Date.now() + 180_000;
  while (!(await fetch(`${base}/readyz`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`crown start did not become ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-child.pid, "SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { base, stop };
};

interface Load {
  readonly p50: number;
  readonly p99: number;
  readonly rate: number;
  readonly non2xx: number;
  readonly errors: number;
}

/** One bounded autocannon run: at most `rate × seconds` requests, over at most `seconds + 15` s. */
const load = async (options: { url: string; rate: number; seconds: number; connections: number; requests: autocannon.Request[] }): Promise<Load> => {
  let instance: autocannon.Instance | undefined;
  let stopAt: NodeJS.Timeout | undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        overallRate: options.rate,
        amount: Math.round(options.rate * options.seconds),
        timeout: 15,
        requests: options.requests,
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    stopAt = setTimeout(() => instance?.stop(), (options.seconds + 15) * 1000);
  });
  clearTimeout(stopAt);
  return { p50: result.latency.p50, p99: result.latency.p99, rate: result.requests.average, non2xx: result.non2xx, errors: result.errors + result.timeouts };
};

const results = (token: string, search: string | null): autocannon.Request => ({
  method: "POST",
  path: "/api/v1/en/report/results?page=1",
  headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
  body: JSON.stringify(search ? { per_page: 10, search } : { per_page: 10 }),
});

const main = async () => {
  // Each line is printed as soon as it is measured (a run cut short keeps what it measured).
  const lines = { push: (line: string) => console.log(line) };
  const name = `crown_bench_${randomBytes(5).toString("hex")}`;
  await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const password = `Bench#${randomBytes(6).toString("hex")}`;
    const hash = await Effect.runPromise(makePasswordHasher().hash(password));
    const connection = connectPostgres(databaseUrl, 2);
    const seeded = performance.now();
    await migrateToLatest(connection.db);
    const data = await seedScale(connection.db, { sizes: SIZES, passwordHash: hash });
    await connection.close();
    lines.push(`seeded ${SIZES.reduce((a, b) => a + b, 0).toLocaleString("en")} published reports on PostgreSQL in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);

    server = await startServer(databaseUrl);
    const signIn = async (email: string) => {
      const r = await fetch(`${server!.base}/api/v1/en/user/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: b64(password), device_type: "web" }),
      });
      const body = (await r.json()) as { results?: { token?: string } };
      if (!body.results?.token) throw new Error(`sign-in of ${email}: ${r.status} ${JSON.stringify(body)}`);
      return body.results.token;
    };
    const tokens = new Map<number, string>();
    for (const physician of data.physicians) tokens.set(physician.reports, await signIn(physician.email));

    // Sign-ins of the parents (each from its own address behind the trusted proxy, so the per-address limit does not stop the load).
    const parents = Array.from({ length: 500 }, (_, i) => `scale-parent-${SIZES.indexOf(100_000)}-${i + 1}@example.com`);
    const signInRequests: autocannon.Request[] = parents.map((email, i) => ({
      method: "POST",
      path: "/api/v1/en/user/sign-in",
      headers: { "content-type": "application/json", "x-forwarded-for": `10.${(i >> 8) & 255}.${i & 255}.${1 + (i % 250)}` },
      body: JSON.stringify({ email, password: b64(password), device_type: "web" }),
    }));

    const runAll = async (label: string) => {
      lines.push(`results page (POST /report/results?page=1) at a fixed ${RATE} req/s for ${SECONDS} s each${label}:`);
      const rows: Array<{ size: number; search: boolean; r: Load }> = [];
      for (const size of SIZES) {
        for (const search of [null, data.searchTerm]) {
          const request = results(tokens.get(size)!, search);
          await load({ url: server!.base, rate: 50, seconds: 1, connections: 4, requests: [request] }); // warm-up
          const r = await load({ url: server!.base, rate: RATE, seconds: SECONDS, connections: 32, requests: [request] });
          rows.push({ size, search: search !== null, r });
          lines.push(
            `  ${size.toLocaleString("en").padStart(7)} reports ${search ? `search "${search}"` : "no search      "}  p50 ${ms(r.p50)}  p99 ${ms(r.p99)}  ${r.rate.toFixed(0)} req/s  non-2xx ${r.non2xx}  errors ${r.errors}`,
          );
        }
      }
      return rows;
    };

    const alone = await runAll("");
    let signInLoad: Promise<Load> | undefined;
    const loadedSeconds = SIZES.length * 2 * (SECONDS + 2) + 5;
    signInLoad = load({ url: server.base, rate: SIGNINS_PER_SECOND, seconds: loadedSeconds, connections: 8, requests: signInRequests });
    const loaded = await runAll(` while ${SIGNINS_PER_SECOND} sign-ins/s run (argon2id)`);
    const signIns = await signInLoad;
    lines.push(`  sign-ins meanwhile: p50 ${ms(signIns.p50)}  p99 ${ms(signIns.p99)}  ${signIns.rate.toFixed(1)}/s  non-2xx ${signIns.non2xx}`);
    const worst = Math.max(...loaded.map((row, i) => row.r.p99 / Math.max(1, alone[i]!.r.p99)));
    lines.push(`  the sign-in load raised the results page's p99 by at most ${worst.toFixed(2)}x (goal ≤ 2x)`);
    const goal = [...alone, ...loaded].every((row) => row.r.p99 <= 50);
    lines.push(`goal p99 ≤ 50 ms at ${RATE} req/s for every size: ${goal ? "met" : "NOT met"}`);

    // Overload: far more requests at once than CROWN_MAX_IN_FLIGHT (256) lets in; the refused ones must be answered at once.
    const burst = 1_500;
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: burst }, async () => {
        const t0 = performance.now();
        const r = await fetch(`${server!.base}/api/v1/en/report/results?page=1`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${tokens.get(100_000)}` },
          body: JSON.stringify({ per_page: 10, search: data.searchTerm }),
          signal: AbortSignal.timeout(60_000),
        }).then(
          async (res) => ({ status: res.status, retryAfter: res.headers.get("retry-after"), ms: (await res.arrayBuffer(), performance.now() - t0) }),
          () => ({ status: 0, retryAfter: null, ms: performance.now() - t0 }),
        );
        return r;
      }),
    );
    const refused = answers.filter((a) => a.status === 503).map((a) => a.ms).sort((a, b) => a - b);
    const pct = (xs: number[], p: number) => (xs.length === 0 ? 0 : xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!);
    lines.push(
      `overload: ${burst} requests at once in ${((performance.now() - started) / 1000).toFixed(1)} s: ${answers.filter((a) => a.status === 200).length} answered 200, ${refused.length} answered 503 (Retry-After ${answers.find((a) => a.status === 503)?.retryAfter ?? "-"}), ${answers.filter((a) => a.status === 0).length} failed; 503 latency p50 ${ms(pct(refused, 50))} p99 ${ms(pct(refused, 99))} (goal < 100 ms)`,
    );
  } finally {
    await server?.stop();
    await admin(`drop database if exists ${name} with (force)`);
  }
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
