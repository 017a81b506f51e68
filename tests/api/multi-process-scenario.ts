// Crown as production runs it, on one machine: 2 API processes (`crown start`, CROWN_WORKER=off) and 2 job
// workers (`crown worker`) over one PostgreSQL database and one S3-protocol server (s3rver), behind a
// loopback round-robin proxy. Parents upload and finalize reports, a reviewer publishes them, every parent
// has a live event stream on each API process; mid-run one API process and one worker are killed with
// SIGKILL and started again. Then each API process and the workers are stopped with SIGTERM while work is in
// flight. The test (multi-process.int.test.ts) asserts on what this returns; the bench
// (tests/bench/multi-process.ts) prints it. Issue 42, item 3; ADR 0141.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Accounts, type UserType } from "@crown/core";
import { sql } from "kysely";
import sharp from "sharp";
import { createTestDatabase, type TestDatabase } from "@crown/db/testing";
import { makeS3Client } from "@crown/storage";
import { startS3rver } from "@crown/storage/s3rver";
import { freePort } from "../e2e/helpers/server.ts";
import { composeServices } from "../../apps/server/src/compose.ts";
import { readConfig } from "../../apps/server/src/config.ts";
import { babyOf } from "./crash-fixtures.ts";
import { type CrownProcess, killCrown, repoRoot, spawnCrown, stopCrown, terminateAndWait, waitUntil } from "./crown-processes.ts";
import { b64, withSecondStep } from "./harness.ts";
import { startRoundRobinProxy } from "./round-robin-proxy.ts";
import { type EventReader, readEvents, type SseEvent } from "./sse.ts";

const PASSWORD = "Sunny-day-42";
const SAMPLE = path.join(repoRoot, "models/head-contour/samples/good-1-typical.jpg");
/** Short lease and recovery periods (as the crash trials use): the defaults only make recovery slower. */
const TIMINGS = { CROWN_LEASE_SECONDS: "5", CROWN_RECOVERY_SECONDS: "3" };

export interface ScenarioOptions {
  readonly parents: number;
  readonly reportsPerParent: number;
  /** Progress lines (the bench prints them). */
  readonly say?: (line: string) => void;
  /** Called once mid-run with each process's /metrics text (the bench prints a digest). */
  readonly onMetrics?: (byProcess: Record<string, string>) => void;
}

interface Call {
  readonly status: number;
  readonly json: any;
  readonly attempts: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Verified, Active accounts made as `crown user:create` makes them, in this process (a CLI per user costs a start of Crown each). */
const createUsers = async (database: TestDatabase, secret: string, users: ReadonlyArray<{ role: UserType; email: string; firstName: string; lastName: string }>) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "crown-mp-users-"));
  const config = readConfig({ CROWN_DATA_DIR: dataDir, DATABASE_URL: database.url!, CROWN_SECRET: secret });
  const services = await composeServices(config, { db: database.db, kind: "postgres", close: async () => undefined, url: database.url }, { model: null, analyze: {}, problem: "not needed" });
  try {
    for (const u of users) await services.run(Accounts.createVerifiedUser({ email: u.email, password: PASSWORD, type: u.role, firstName: u.firstName, lastName: u.lastName }));
  } finally {
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

/** A live tab: an event stream kept open, reopened through the proxy with Last-Event-ID whenever it drops. */
class LiveTab {
  readonly events: SseEvent[] = [];
  readonly repeated: string[] = [];
  reconnects = 0;
  #seen = new Set<string>();
  #last: string | null = null;
  #stopped = false;
  #reader: EventReader | null = null;
  #running: Promise<void>;
  constructor(
    readonly name: string,
    firstUrl: string,
    readonly reconnectUrl: string,
    readonly token: string,
  ) {
    this.#running = this.#run(firstUrl);
  }
  /** Takes the reader's events from `from` on; answers how many it has taken. */
  #collect(reader: EventReader, from: number) {
    for (const e of reader.events.slice(from)) {
      if (e.id === null) continue;
      if (this.#seen.has(e.id)) {
        if (!this.repeated.includes(e.id)) this.repeated.push(e.id);
        continue;
      }
      this.#seen.add(e.id);
      this.events.push(e);
      this.#last = e.id;
    }
    return reader.events.length;
  }
  async #run(firstUrl: string) {
    let url = firstUrl;
    while (!this.#stopped) {
      try {
        const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: "text/event-stream" };
        if (this.#last) headers["last-event-id"] = this.#last;
        const res = await fetch(`${url}/api/v1/en/events`, { headers });
        if (res.status === 200) {
          const reader = readEvents(res);
          this.#reader = reader;
          let taken = 0;
          while (!reader.ended && !this.#stopped) {
            taken = this.#collect(reader, taken);
            await sleep(100);
          }
          this.#collect(reader, taken);
        } else await res.body?.cancel();
      } catch {
        // the process behind it died or stopped: reconnect
      }
      if (this.#stopped) break;
      this.reconnects += 1;
      url = this.reconnectUrl;
      await sleep(200);
    }
  }
  statuses(reportId: string) {
    return this.events.filter((e) => e.event === "report.status" && e.data.report_identifier === reportId).map((e) => e.data.status as string);
  }
  async stop() {
    this.#stopped = true;
    await this.#reader?.close();
    await this.#running;
  }
}

export const runMultiProcessScenario = async (options: ScenarioOptions) => {
  const say = options.say ?? (() => undefined);
  const began = Date.now();
  const secret = `multi-process-${randomBytes(8).toString("hex")}`;
  let database: TestDatabase | undefined;
  let s3: Awaited<ReturnType<typeof startS3rver>> | undefined;
  const bucket = `multi-${randomBytes(4).toString("hex")}`;
  const processes: Record<string, CrownProcess | undefined> = {};
  const tabs: LiveTab[] = [];
  let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>> | undefined;

  try {
    [database, s3] = await Promise.all([createTestDatabase("postgres"), startS3rver()]);
    const db = database.db;
    const env = {
      DATABASE_URL: database.url!,
      CROWN_SECRET: secret,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_BUCKET: bucket,
      ...TIMINGS,
    };
    const apiPorts = [await freePort(), await freePort()] as const;
    const metricsPorts: Record<string, number> = { apiA: await freePort(), apiB: await freePort(), workerA: await freePort(), workerB: await freePort() };
    const apiUrl = (i: 0 | 1) => `http://127.0.0.1:${apiPorts[i]}`;
    const dataDirs: Record<string, string> = {};

    const startApi = async (name: "apiA" | "apiB") => {
      const i = name === "apiA" ? 0 : 1;
      const p = spawnCrown(["start"], { ...env, PORT: String(apiPorts[i]), PUBLIC_URL: apiUrl(i), CROWN_WORKER: "off", METRICS_PORT: String(metricsPorts[name]) }, "crown-mp-", dataDirs[name]);
      dataDirs[name] = p.dataDir;
      processes[name] = p;
      await waitUntil(`${name} ready`, p, async () => {
        try {
          return (await fetch(`${apiUrl(i)}/readyz`)).ok;
        } catch {
          return false;
        }
      });
      return p;
    };
    const startWorker = async (name: "workerA" | "workerB") => {
      const p = spawnCrown(["worker"], { ...env, METRICS_PORT: String(metricsPorts[name]) }, "crown-mp-", dataDirs[name]);
      dataDirs[name] = p.dataDir;
      processes[name] = p;
      await waitUntil(`${name} started`, p, () => p.output().includes("worker started"));
      return p;
    };

    // The people: parents with a baby each, and a reviewer. Users are made while the processes start.
    const parents = Array.from({ length: options.parents }, (_, i) => ({ email: `parent${i}@multi.test`, token: "", baby: "" }));
    const reviewerEmail = "reviewer@multi.test";
    await Promise.all([
      createUsers(database, secret, [...parents.map((p, i) => ({ role: "parent" as const, email: p.email, firstName: `Paula${i}`, lastName: "Multi" })), { role: "reviewer", email: reviewerEmail, firstName: "Rita", lastName: "Review" }]),
      startApi("apiA"),
      startApi("apiB"),
      startWorker("workerA"),
      startWorker("workerB"),
    ]);
    say(`4 processes ready after ${((Date.now() - began) / 1000).toFixed(1)} s`);
    proxy = await startRoundRobinProxy(() => apiPorts);
    const proxyUrl = proxy.url;

    // ---- calls through the proxy, retried on a connection error (the idempotency key kept) ----
    const fiveHundreds: Array<{ route: string; status: number; at: number }> = [];
    let connectionErrors = 0;
    const call = async (method: string, route: string, token: string | null, body?: { json?: unknown; form?: () => FormData }, headers: Record<string, string> = {}, base = proxyUrl): Promise<Call> => {
      for (let attempt = 1; ; attempt++) {
        try {
          const h: Record<string, string> = { ...headers };
          if (token) h.authorization = `Bearer ${token}`;
          let payload: BodyInit | undefined;
          if (body?.json !== undefined) {
            h["content-type"] = "application/json";
            payload = JSON.stringify(body.json);
          } else if (body?.form) payload = body.form();
          const res = await fetch(`${base}/api/v1/en${route}`, { method, headers: h, body: payload });
          const text = await res.text();
          if (res.status >= 500) fiveHundreds.push({ route, status: res.status, at: Date.now() });
          let json: any = null;
          try {
            json = JSON.parse(text);
          } catch {
            json = text;
          }
          return { status: res.status, json, attempts: attempt };
        } catch (error) {
          connectionErrors += 1;
          if (attempt >= 60) throw error;
          await sleep(250);
        }
      }
    };
    const signIn = async (email: string, base = proxyUrl) => {
      const r = await call("POST", "/user/sign-in", null, { json: { email, password: b64(PASSWORD), device_type: "web" } }, {}, base);
      if (r.status !== 200) throw new Error(`sign-in of ${email}: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json.results.token as string;
    };

    // ---- sessions and rate limits across processes ----
    const sessionToken = await signIn(parents[0]!.email, apiUrl(0));
    const sessions = {
      readOnOther: (await call("GET", "/user/profile", sessionToken, undefined, {}, apiUrl(1))).status,
      signOutOnOther: (await call("GET", "/user/sign-out", sessionToken, undefined, {}, apiUrl(1))).status,
      afterSignOut: (await call("GET", "/user/profile", sessionToken, undefined, {}, apiUrl(0))).status,
    };
    // Wrong passwords alternately on A and B: the database's counters slow the account down across both
    // (5 free attempts per account and address), where per-process counters would allow 10.
    const wrong: number[] = [];
    for (let i = 0; i < 9 && !wrong.includes(429); i++) {
      wrong.push((await call("POST", "/user/sign-in", null, { json: { email: reviewerEmail, password: b64("Not-the-password-1"), device_type: "web" } }, {}, apiUrl((i % 2) as 0 | 1))).status);
    }
    // A reviewer passes the second step (issue 44): sets up an app at the first sign-in, then answers
    // with a recovery code; through `call`, so its retries and 5xx count hold for these calls too.
    const { signInCall: staffSignIn } = withSecondStep(async (method, route, o = {}) => {
      const r = await call(method, route, o.token ?? null, o.body === undefined ? undefined : { json: o.body });
      return { status: r.status, json: r.json ?? {}, response: new Response(null, { status: r.status }) };
    });
    // The reviewer's own sign-in waits out the delay those failures earned.
    const reviewer = await (async () => {
      for (;;) {
        const r = await staffSignIn("POST", "/user/sign-in", { body: { email: reviewerEmail, password: b64(PASSWORD), device_type: "web" } });
        if (r.status === 200) return r.json.results.token as string;
        if (r.status !== 429) throw new Error(`reviewer sign-in: ${r.status}`);
        await sleep(500);
      }
    })();

    for (const p of parents) {
      p.token = await signIn(p.email);
      p.baby = await babyOf(db, p.email);
      tabs.push(new LiveTab(`${p.email}@A`, apiUrl(0), proxyUrl, p.token), new LiveTab(`${p.email}@B`, apiUrl(1), proxyUrl, p.token));
    }

    // ---- the run ----
    const total = options.parents * options.reportsPerParent;
    const finalized: string[] = [];
    const acknowledged: Array<{ reportId: string; attachmentId: string }> = [];
    const published = new Set<string>();
    const failures: string[] = [];
    const photo = readFileSync(SAMPLE);
    const parentRun = async (p: (typeof parents)[number]) => {
      for (let r = 0; r < options.reportsPerParent; r++) {
        const key = randomUUID();
        const prepared = await call("POST", "/report/prepare", p.token, { json: { baby_identifier: p.baby, analysis_type: "head_ci_cvai_analysis" } }, { "idempotency-key": key });
        if (prepared.status !== 201) {
          failures.push(`prepare ${prepared.status} ${JSON.stringify(prepared.json)}`);
          continue;
        }
        const id = prepared.json.results.report_identifier as string;
        const form = () => {
          const f = new FormData();
          f.append("report_identifier", id);
          f.append("attachments[]", new Blob([photo], { type: "image/jpeg" }), "head.jpg");
          return f;
        };
        const uploaded = await call("POST", "/report/upload", p.token, { form });
        if (uploaded.status !== 200) {
          failures.push(`upload ${uploaded.status} ${JSON.stringify(uploaded.json)}`);
          continue;
        }
        for (const a of uploaded.json.results.attachments) acknowledged.push({ reportId: id, attachmentId: a.identifier });
        const done = await call("POST", "/report/finalize", p.token, { json: { report_identifier: id } });
        if (done.status !== 200) {
          failures.push(`finalize ${done.status} ${JSON.stringify(done.json)}`);
          continue;
        }
        finalized.push(id);
      }
    };
    let parentsDone = false;
    const reviewerRun = async () => {
      while (!parentsDone || published.size < finalized.length) {
        const waiting = finalized.filter((id) => !published.has(id));
        const ready = waiting.length === 0 ? [] : (await sql<{ id: string; status: string }>`select id, status from reports where id in (${sql.join(waiting)})`.execute(db)).rows;
        for (const report of ready) {
          if (report.status === "published") published.add(report.id);
          if (report.status !== "analyzed") continue;
          const r = await call("POST", `/review/report/${report.id}/publish`, reviewer);
          if (r.status === 200 || r.status === 201) published.add(report.id);
          else if (r.status === 409 && r.attempts > 1) continue; // a retry after the first publish went through: read again
          else failures.push(`publish ${r.status} ${JSON.stringify(r.json)}`);
        }
        if (failures.length > 0) return;
        await sleep(300);
      }
    };

    const activeAnalyses = async () =>
      Number((await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'analyze-report' and state = 'active'`.execute(db)).rows[0]!.n);
    const kills = { at: 0, apiReadyMs: 0, workerReadyMs: 0, activeJobsAtKill: 0, fiveHundredsDuring: 0, recoveredMs: 0, settledMs: 0 };
    let metrics: Record<string, string> = {};
    const killer = async () => {
      // Mid-run: a third of the reports finalized and both workers busy (or the last report in).
      await waitUntil("a third of the reports finalized", processes.apiA!, async () => finalized.length >= Math.ceil(total / 3) || failures.length > 0, 600_000);
      await waitUntil("both workers analysing", processes.workerA!, async () => (await activeAnalyses()) >= 2 || parentsDone || failures.length > 0, 600_000);
      // The figures every process serves, while it all runs.
      metrics = Object.fromEntries(
        await Promise.all(
          Object.entries(metricsPorts).map(async ([name, port]) => [name, await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text(), (e) => `unreachable: ${String(e)}`)] as const),
        ),
      );
      options.onMetrics?.(metrics);
      kills.activeJobsAtKill = await activeAnalyses();
      kills.at = Date.now();
      say(`SIGKILL to apiA and workerA (${finalized.length}/${total} finalized, ${kills.activeJobsAtKill} analyses running)`);
      await Promise.all([killCrown(processes.apiA!), killCrown(processes.workerA!)]);
      await Promise.all([
        startApi("apiA").then(() => (kills.apiReadyMs = Date.now() - kills.at)),
        startWorker("workerA").then(() => (kills.workerReadyMs = Date.now() - kills.at)),
      ]);
      say(`apiA ready again after ${(kills.apiReadyMs / 1000).toFixed(1)} s, workerA after ${(kills.workerReadyMs / 1000).toFixed(1)} s`);
    };

    const run = Promise.all(parents.map(parentRun)).finally(() => (parentsDone = true));
    await Promise.all([run, reviewerRun(), killer()]);
    // Every report published: the time from the kill until the last of them is the time to recover.
    kills.recoveredMs = Date.now() - kills.at;
    kills.fiveHundredsDuring = fiveHundreds.filter((f) => f.at >= kills.at).length;
    say(`${published.size}/${total} published, ${((Date.now() - kills.at) / 1000).toFixed(1)} s after the kill`);

    // A worker killed between writing an analysis and marking its job done leaves the job active until it
    // expires (ADR 0029); its retry finds the report analysed and does nothing. The queue settles first.
    await waitUntil("the analysis queue settling", processes.workerB!, async () => Number((await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'analyze-report' and state in ('created', 'retry', 'active')`.execute(db)).rows[0]!.n) === 0, 180_000);
    kills.settledMs = Date.now() - kills.at;

    // Every tab has seen every one of its parent's reports published, whichever process it was on.
    const liveMissing: string[] = [];
    for (const [i, p] of parents.entries()) {
      const mine = (await sql<{ id: string }>`select r.id from reports r join babies b on b.id = r.baby_id join users u on u.id = b.parent_id where u.email = ${p.email} and r.status = 'published'`.execute(db)).rows.map((r) => r.id);
      for (const tab of [tabs[2 * i]!, tabs[2 * i + 1]!]) {
        const deadline = Date.now() + 60_000;
        for (;;) {
          const missing = mine.filter((id) => !tab.statuses(id).includes("published"));
          if (missing.length === 0) break;
          if (Date.now() > deadline) {
            liveMissing.push(...missing.map((id) => `${tab.name}: ${id}`));
            break;
          }
          await sleep(200);
        }
      }
    }

    // ---- SIGTERM drains: an upload admitted by apiB still answers; an analysis running finishes ----
    const parent = parents[0]!;
    const drainReport = (await call("POST", "/report/prepare", parent.token, { json: { baby_identifier: parent.baby, analysis_type: "head_ci_cvai_analysis" } }, { "idempotency-key": randomUUID() })).json.results.report_identifier as string;
    const noise = await sharp(randomBytes(600 * 600 * 3), { raw: { width: 600, height: 600, channels: 3 } }).png().toBuffer();
    const boundary = "----drain";
    const whole = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="report_identifier"\r\n\r\n${drainReport}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="attachments[]"; filename="n.png"\r\nContent-Type: image/png\r\n\r\n`),
      noise,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const cut = whole.byteLength - 64 * 1024;
    let finish!: () => void;
    const rest = new Promise<void>((r) => (finish = r));
    const slowUpload = fetch(`${apiUrl(1)}/api/v1/en/report/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${parent.token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new Uint8Array(whole.subarray(0, cut)));
          await rest;
          controller.enqueue(new Uint8Array(whole.subarray(cut)));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit).then(
      async (res) => ({ status: res.status, json: (await res.json()) as any }),
      (error) => ({ status: 0, json: String(error) }),
    );
    // The upload is being written (its blob on the pending ledger): then apiB is told to stop.
    await waitUntil("the slow upload being stored", processes.apiB!, async () => Number((await sql<{ n: number }>`select count(*)::int as n from pending_blobs where blob_key like 'attachments/%'`.execute(db)).rows[0]!.n) > 0, 120_000);
    const apiB = processes.apiB!;
    const reconnectsBefore = tabs.filter((_, i) => i % 2 === 1).map((t) => t.reconnects);
    const termAt = Date.now();
    const apiBGone = terminateAndWait(apiB);
    await waitUntil("apiB stops taking connections", apiB, async () => {
      try {
        return (await fetch(`${apiUrl(1)}/readyz`)).status === 503;
      } catch {
        return true;
      }
    });
    // Meanwhile the proxy sends new calls to apiA.
    const duringDrain = await call("GET", "/user/profile", parent.token);
    finish();
    const drainedUpload = await slowUpload;
    await apiBGone;
    const apiBStopMs = Date.now() - termAt;
    // The tabs first opened on apiB: their streams were cut at the stop, and they came back through the proxy.
    const tabsCutAndBack = tabs.filter((_, i) => i % 2 === 1).every((t, i) => t.reconnects > reconnectsBefore[i]!);
    const drainOutput = apiB.output();

    // A report with several photos is analysed while both workers get SIGTERM: it finishes, on its first attempt.
    const busyReport = (await call("POST", "/report/prepare", parent.token, { json: { baby_identifier: parent.baby, analysis_type: "head_ci_cvai_analysis" } }, { "idempotency-key": randomUUID() })).json.results.report_identifier as string;
    const photos = ["good-1-typical.jpg", "good-2-brachy.jpg", "good-3-dolicho.jpg"].map((f) => readFileSync(path.join(repoRoot, "models/head-contour/samples", f)));
    const many = await call("POST", "/report/upload", parent.token, {
      form: () => {
        const f = new FormData();
        f.append("report_identifier", busyReport);
        photos.forEach((b, i) => f.append("attachments[]", new Blob([b], { type: "image/jpeg" }), `p${i}.jpg`));
        return f;
      },
    });
    const busyFinalized = (await call("POST", "/report/finalize", parent.token, { json: { report_identifier: busyReport } })).status;
    await waitUntil("the analysis running", processes.workerA!, async () => (await sql<{ status: string }>`select status from reports where id = ${busyReport}`.execute(db)).rows[0]?.status === "analyzing", 120_000);
    const workers = [processes.workerA!, processes.workerB!];
    await Promise.all(workers.map((w) => terminateAndWait(w)));
    const busyAfter = (await sql<{ status: string }>`select status from reports where id = ${busyReport}`.execute(db)).rows[0]?.status;
    const busyJob = (await sql<{ state: string; retry_count: number }>`select state::text as state, retry_count from pgboss.job where name = 'analyze-report' and singleton_key like ${`%${busyReport}%`}`.execute(db)).rows;

    // ---- what the database and the bucket hold ----
    const ids = finalized;
    const reportsOfBabies = Number(
      (await sql<{ n: number }>`select count(*)::int as n from reports where baby_id in (${sql.join(parents.map((p) => p.baby))}) and id not in (${drainReport}, ${busyReport})`.execute(db)).rows[0]!.n,
    );
    const versions = (await sql<{ report_id: string; n: number }>`select report_id, count(*)::int as n from report_versions where report_id in (${sql.join(ids)}) group by report_id`.execute(db)).rows;
    const completedJobs = (
      await sql<{ key: string; completed: number; attempts: number }>`select singleton_key as key, count(*) filter (where state = 'completed')::int as completed, max(retry_count)::int + 1 as attempts
        from pgboss.job where name = 'analyze-report' group by singleton_key`.execute(db)
    ).rows;
    const measuredTwice = (await sql<{ attachment_id: string }>`select attachment_id from measurements group by attachment_id having count(*) > 1`.execute(db)).rows;
    const attachmentRows = new Map((await sql<{ id: string; blob_key: string }>`select id, blob_key from attachments where report_id in (${sql.join(ids)})`.execute(db)).rows.map((r) => [r.id, r.blob_key]));
    const client = makeS3Client({ ...s3, bucket });
    const lost: string[] = [];
    for (const a of acknowledged) {
      const key = attachmentRows.get(a.attachmentId);
      if (!key) {
        lost.push(`${a.attachmentId}: no row`);
        continue;
      }
      await client.statObject(bucket, key).catch(() => lost.push(`${a.attachmentId}: no object ${key}`));
    }
    const statuses = (await sql<{ status: string; n: number }>`select status, count(*)::int as n from reports where id in (${sql.join(ids)}) group by status`.execute(db)).rows;

    return {
      total,
      finalized: finalized.length,
      published: published.size,
      failures,
      statuses: Object.fromEntries(statuses.map((s) => [s.status, s.n])),
      /** Reports made for the parents' babies beyond the ones they finalized (a retried prepare made twice). */
      duplicateReports: reportsOfBabies - finalized.length,
      versionsPerReport: versions.map((v) => v.n),
      analysisJobs: completedJobs.filter((j) => ids.some((id) => j.key?.includes(id))),
      measuredTwice: measuredTwice.length,
      acknowledged: acknowledged.length,
      lost,
      sessions,
      wrongPasswordStatuses: wrong,
      live: {
        missing: liveMissing,
        repeated: tabs.flatMap((t) => t.repeated.map((id) => `${t.name}: ${id}`)),
        reconnects: tabs.map((t) => t.reconnects),
        // Tabs first opened on A (killed) and on B.
        eventsOnA: tabs.filter((_, i) => i % 2 === 0).map((t) => t.events.length),
        eventsOnB: tabs.filter((_, i) => i % 2 === 1).map((t) => t.events.length),
      },
      fiveHundreds,
      connectionErrors,
      kills,
      proxySent: Object.fromEntries(proxy.sent),
      drain: {
        upload: drainedUpload,
        duringDrain: duringDrain.status,
        apiBSaidStopping: drainOutput.includes("received SIGTERM"),
        apiBLeftUnfinished: drainOutput.includes("stopped with requests still in progress"),
        apiBStopMs,
        tabsCutAndBack,
        manyPhotos: many.status,
        busyFinalized,
        busyAfter,
        busyJob,
        workerOutputs: workers.map((w) => w.output().slice(-3000)),
      },
      metrics,
      wallMs: Date.now() - began,
    };
  } finally {
    await Promise.all(tabs.map((t) => t.stop()));
    await proxy?.close();
    await Promise.all(Object.values(processes).map((p) => stopCrown(p)));
    await database?.drop();
    await s3?.stop();
  }
};
