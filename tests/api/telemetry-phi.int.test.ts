import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { findLink, readOutbox } from "@crown/mail";
import { createTestDatabase, postgresServerUrl, type TestDatabase } from "@crown/db/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "../e2e/helpers/server.ts";
import { createUser } from "./crash-fixtures.ts";
import { type CrownProcess, processApi, repoRoot, startCrown, stopCrown, terminateAndWait, waitUntil } from "./crown-processes.ts";
import { b64 } from "./harness.ts";
import { crownCommand } from "../crown-command.ts";

/**
 * Issue 42, item 4 (ADR 0142): a real `crown start` with traces sent over OTLP/HTTP to a receiver in this
 * test and metrics on METRICS_PORT goes through a whole flow — a parent signs up and verifies her e-mail,
 * registers her baby, uploads and finalizes a photo, the worker analyses it, a reviewer publishes it.
 * Then every span received, the /metrics text and every line the process logged are searched for each
 * name, e-mail and date of birth the flow used: none is there. And what should be there is: JSON log
 * lines carrying the request id the answers gave back in X-Request-Id, spans carrying it, HTTP server
 * spans named by route pattern, pg and client spans, and the metrics the issue lists.
 */

const adminUrl = await postgresServerUrl();
const PASSWORD = "Sunny-day-42";
const SECRET = `phi-secret-${randomBytes(8).toString("hex")}`;
const SAMPLE = path.join(repoRoot, "models/head-contour/samples/good-1-typical.jpg");

// Names no other text in Crown contains, so a hit is this flow's data and nothing else.
const PARENT = { first: "Zephyrine", last: "Quillfeather", email: "zephyrine.quillfeather@phi-search.test" };
const BABY = { first: "Octavian", middle: "Barnaby", last: "Quillfeather-Moss", dob: "2026-07-19" };
const REVIEWER = { first: "Evangelina", last: "Thornbury", email: "evangelina.thornbury@phi-search.test" };
const dobForms = (iso: string) => {
  const [y, m, d] = iso.split("-");
  return [iso, `${m}/${d}/${y}`, `${d}/${m}/${y}`, `${y}${m}${d}`];
};
const PHI = [PARENT.first, PARENT.last, PARENT.email, BABY.first, BABY.middle, BABY.last, REVIEWER.first, REVIEWER.last, REVIEWER.email, ...dobForms(BABY.dob)];
const NEEDLES = [...PHI, ...PHI.filter((s) => s.includes("@")).map((s) => encodeURIComponent(s))];

describe.skipIf(adminUrl === null)("no PHI in traces, metrics or logs after a whole flow", () => {
  let database: TestDatabase;
  let server: (CrownProcess & { readonly url: string }) | undefined;
  let receiver: Server;
  const received: string[] = [];
  let url = "";
  let metricsUrl = "";

  beforeAll(async () => {
    // An OTLP/HTTP receiver: the JSON the exporter posts to /v1/traces, kept as text.
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        if (req.url === "/v1/traces") received.push(Buffer.concat(chunks).toString("utf8"));
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    database = await createTestDatabase("postgres");
    const env = { DATABASE_URL: database.url!, CROWN_SECRET: SECRET };
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    server = await startCrown(
      {
        ...env,
        METRICS_PORT: String(metricsPort),
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_BSP_SCHEDULE_DELAY: "200",
        OTEL_SERVICE_NAME: "crown-phi-test",
      },
      "crown-phi-",
    );
    url = server.url;
    createUser(env, server.dataDir, "reviewer", REVIEWER.email, PASSWORD);
  }, 240_000);

  afterAll(async () => {
    await stopCrown(server);
    await new Promise((r) => receiver?.close(r));
    await database?.drop();
  }, 60_000);

  test("sign-up, baby, upload, analysis, publish: the names, e-mails and date of birth appear in no span, metric or log line", async () => {
    const { api, signIn } = processApi(() => url, PASSWORD);
    const post = (route: string, body: unknown, token?: string) =>
      fetch(`${url}/api/v1/en${route}`, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

    // Sign-up and the e-mailed verification link.
    const signUp = await post("/user/sign-up", { first_name: PARENT.first, last_name: PARENT.last, email: PARENT.email, password: b64(PASSWORD), phone: "5551234567", type: "parent", register_type: "normal" });
    expect(signUp.status).toBe(201);
    const requestId = signUp.headers.get("x-request-id");
    expect(requestId).toMatch(/^[\w-]{8,}$/);
    let link: string | undefined;
    await waitUntil("the verification e-mail", server!, async () => {
      const mail = (await readOutbox(server!.dataDir)).filter((m) => m.to.includes(PARENT.email)).at(-1);
      link = mail && findLink(mail.text, "/verify-email");
      return link !== undefined;
    });
    const u = new URL(link!);
    const verify = await fetch(`${url}/api/v1/en/email/verify/${u.searchParams.get("id")}/${u.searchParams.get("token")}?expires=${u.searchParams.get("expires")}&signature=${u.searchParams.get("signature")}`);
    expect(verify.status).toBe(200);
    const token = await signIn(PARENT.email);

    // The baby, then a photo uploaded and finalized; the worker in the process analyses it.
    const registered = await api("POST", "/user/register-baby", token, {
      physician_identifier: "no-physician",
      first_name: BABY.first,
      middle_name: BABY.middle,
      last_name: BABY.last,
      name: `${BABY.first} ${BABY.last}`,
      date_of_birth: BABY.dob,
      relation: "mother",
      referral_code: "",
      gender: "male",
      ethnicity: "Asian",
      nicu_time: 0,
      previous_condition: "",
    });
    expect(registered.status, JSON.stringify(registered.json)).toBe(201);
    const babyId = registered.json.results.baby.identifier as string;
    // A parent without a physician waits for an operator's approval: given as an operator gives it.
    if (registered.json.results.parent_status !== "Active") {
      // Not spawnSync: a blocked event loop leaves this process's kept-alive connections stale.
      const approved = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(...crownCommand(["user:approve", PARENT.email]), { cwd: repoRoot, env: { ...process.env, DATABASE_URL: database.url!, CROWN_SECRET: SECRET, CROWN_DATA_DIR: server!.dataDir } });
        let out = "";
        child.stdout.on("data", (d) => (out += String(d)));
        child.stderr.on("data", (d) => (out += String(d)));
        child.on("exit", (code) => resolve({ code, out }));
      });
      expect(approved.code, approved.out).toBe(0);
    }
    const prepared = await api("POST", "/report/prepare", token, { baby_identifier: babyId, analysis_type: "head_ci_cvai_analysis" });
    expect(prepared.status, JSON.stringify(prepared.json)).toBe(201);
    const reportId = prepared.json.results.report_identifier as string;
    const form = new FormData();
    form.append("report_identifier", reportId);
    form.append("attachments[]", new Blob([readFileSync(SAMPLE)], { type: "image/jpeg" }), `${BABY.first}-${BABY.dob}.jpg`);
    expect((await api("POST", "/report/upload", token, form)).status).toBe(200);
    expect((await api("POST", "/report/finalize", token, { report_identifier: reportId })).status).toBe(200);
    await waitUntil("the analysis", server!, async () => (await api("GET", `/report/${reportId}`, token)).json.results.status === "analyzed", 120_000);

    // The reviewer reads and publishes; the parent searches her results by the baby's name.
    const reviewer = await signIn(REVIEWER.email);
    expect((await api("GET", `/review/report/${reportId}`, reviewer)).status).toBe(200);
    expect((await api("POST", `/review/report/${reportId}/publish`, reviewer)).status).toBe(200);
    await api("GET", `/report/${reportId}`, token);
    await fetch(`${url}/api/v1/en/physician/results?search=${encodeURIComponent(BABY.last)}`, { headers: { authorization: `Bearer ${reviewer}` } });
    await fetch(`${url}/api/v1/en/admin/users?search=${encodeURIComponent(PARENT.email)}`, { headers: { authorization: `Bearer ${reviewer}` } });

    const metrics = await (await fetch(metricsUrl)).text();
    // The API's port does not serve them.
    expect((await fetch(`${url}/metrics`)).headers.get("content-type") ?? "").not.toContain("text/plain; version=0.0.4");

    // SIGTERM right after a last call: its span, still buffered, is sent before the process ends.
    const last = await fetch(`${url}/api/v1/en/config`, { headers: { "x-request-id": "the-last-call-before-sigterm" } });
    expect(last.headers.get("x-request-id")).toBe("the-last-call-before-sigterm");
    await terminateAndWait(server!);
    const output = server!.output();
    await stopCrown(server);
    server = undefined;
    const spans = received.join("\n");
    expect(spans.includes("the-last-call-before-sigterm"), output.slice(-3000)).toBe(true);

    // What must be there.
    for (const name of [
      "crown_http_requests_total",
      "crown_http_request_duration_seconds_bucket",
      "crown_http_requests_in_flight",
      "crown_http_requests_shed_total",
      "crown_jobs_waiting",
      "crown_jobs_oldest_waiting_seconds",
      "crown_analysis_seconds_per_photo_count",
      "crown_model_info",
      "crown_process_nodejs_eventloop_lag_p99_seconds",
      "crown_db_pool_connections",
    ]) {
      expect(metrics, name).toContain(name);
    }
    expect(metrics).toMatch(/crown_http_requests_total\{method="POST",route="\/api\/v1\/en\/report\/upload",status="200"\} 1/);
    expect(metrics).toMatch(/crown_analysis_seconds_per_photo_count 1/);
    const logLines = output.split("\n").filter((l) => l.startsWith("{"));
    const logs = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const signUpLine = logs.find((l) => l.requestId === requestId);
    expect(signUpLine).toMatchObject({ msg: "request", method: "POST", route: "/api/v1/en/user/sign-up", status: 201 });
    expect(signUpLine?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(spans).toContain(requestId!);
    expect(spans).toContain(signUpLine!.traceId as string);
    expect(spans).toContain("POST /api/v1/en/report/upload");
    expect(spans).toMatch(/pg\.query/);
    expect(spans).toContain("crown.request_id");

    // What must not.
    const found = NEEDLES.flatMap((needle) =>
      [
        ["span", spans],
        ["metric", metrics],
        ["log", output],
      ]
        .filter(([, text]) => text!.toLowerCase().includes(needle.toLowerCase()))
        .map(([where]) => `${needle} in a ${where}`),
    );
    expect(found).toEqual([]);
  }, 300_000);
});
