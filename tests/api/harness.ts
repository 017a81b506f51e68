import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Accounts } from "@crown/core";
import { authenticatorCodeAt } from "@crown/crypto";
import { createTestDatabase } from "@crown/db/testing";
import { readOutbox, findLink } from "@crown/mail";
import { readConfig } from "../../apps/server/src/config.ts";
import { composeServices, createServerApp } from "../../apps/server/src/compose.ts";

export type DatabaseKind = "pglite" | "postgres";

/** The real server app on a fresh database and data directory, driven in-process through `app.request`. */
export const startTestServer = async (kind: DatabaseKind, env: Record<string, string> = {}) => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "crown-api-"));
  const config = readConfig({ PORT: "8080", CROWN_DATA_DIR: dataDir, PUBLIC_URL: "http://crown.test", TRUST_PROXY: "1", ...env });
  const testDb = await createTestDatabase(kind);
  const services = await composeServices(config, { db: testDb.db, kind, close: async () => undefined, url: testDb.url, pglite: testDb.pglite });
  const app = createServerApp(config, services, () => undefined);
  let address = 0;

  const call = async (method: string, url: string, options: { body?: unknown; token?: string | null; ip?: string; form?: FormData; language?: string } = {}) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    // Each test client gets its own address unless it names one, so per-address limits stay apart.
    headers["x-forwarded-for"] = options.ip ?? `10.0.0.${(address++ % 250) + 1}`;
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    const response = await app.request(`/api/v1/${options.language ?? "en"}${url}`, { method, headers, body });
    const type = response.headers.get("content-type") ?? "";
    const json = type.includes("application/json") ? ((await response.json()) as Record<string, any>) : null;
    return { status: response.status, json: json ?? {}, response };
  };

  const { signInCall, enrolled } = withSecondStep(call);

  return {
    app,
    services,
    dataDir,
    call: signInCall,
    /** The authenticator secret and unspent recovery codes the harness set up for an account. */
    secondFactorOf: (email: string) => enrolled.get(email.trim().toLowerCase()),
    /** The server's own answer, without the harness's second step. */
    rawPost: (url: string, body?: unknown, token?: string | null) => call("POST", url, { body, token }),
    get: (url: string, token?: string | null) => signInCall("GET", url, { token }),
    post: (url: string, body?: unknown, token?: string | null) => signInCall("POST", url, { body, token }),
    outbox: () => readOutbox(dataDir),
    findLink,
    close: async () => {
      await services.close();
      await testDb.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
};

export type ApiCall = (
  method: string,
  url: string,
  options?: { body?: unknown; token?: string | null; ip?: string; form?: FormData; language?: string },
) => Promise<{ status: number; json: Record<string, any>; response: Response }>;

/**
 * Two-step sign-in for the tests' staff (issue 44): a physician, staff member, reviewer or admin who
 * signs in without a second factor sets up an authenticator app through the API at once (its codes
 * computed with the same library as the server's), and signs in again with a recovery code; an
 * account already set up is answered its second step with the next recovery code. A test about the
 * second step itself gives `code`, or calls the server raw, and sees the server's own answers.
 */
export const withSecondStep = (call: ApiCall) => {
  const enrolled = new Map<string, { secret: string; codes: string[] }>();
  const nextCode = async (email: string, token: string | null) => {
    const factor = enrolled.get(email)!;
    if (factor.codes.length < 3 && token) {
      const fresh = await call("POST", "/user/second-factor/recovery-codes", { token });
      if (fresh.status === 200) factor.codes = [...(fresh.json.results.recovery_codes as string[])];
    }
    return factor.codes.shift()!;
  };
  const signInCall: ApiCall = async (method, url, options = {}) => {
    const first = await call(method, url, options);
    const body = options.body as { email?: string; code?: string } | undefined;
    if (method !== "POST" || url !== "/user/sign-in" || !body?.email || body.code !== undefined) return first;
    const email = body.email.trim().toLowerCase();
    if (first.status === 403 && first.json.status === Accounts.SECOND_FACTOR_STEP_STATUS && enrolled.has(email)) {
      return call(method, url, { ...options, body: { ...body, code: await nextCode(email, null) } });
    }
    const results = first.json.results as { token?: string; type?: string } | undefined;
    if (first.status !== 200 || !results?.token || !Accounts.secondFactorRequired(results.type as never) || enrolled.has(email)) return first;
    const token = results.token;
    const started = await call("POST", "/user/second-factor/app", { token });
    if (started.status !== 200) throw new Error(`second factor: ${JSON.stringify(started.json)}`);
    const secret = started.json.results.secret as string;
    const confirmed = await call("POST", "/user/second-factor/app/confirm", { token, body: { code: authenticatorCodeAt(secret) } });
    if (confirmed.status !== 200) throw new Error(`second factor: ${JSON.stringify(confirmed.json)}`);
    enrolled.set(email, { secret, codes: [...(confirmed.json.results.recovery_codes as string[])] });
    // Signed in again with the second step, so the answer (its onboarding step) is as it is now.
    return call(method, url, { ...options, body: { ...body, code: await nextCode(email, token) } });
  };
  return { signInCall, enrolled };
};

/**
 * `ApiCall` over HTTP to a running crown process at `baseUrl()` (read per call: ports are chosen late),
 * so `withSecondStep` signs staff in against `crown start` as it does in-process.
 */
export const fetchApiCall =
  (baseUrl: () => string): ApiCall =>
  async (method, url, options = {}) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    const response = await fetch(`${baseUrl()}/api/v1/${options.language ?? "en"}${url}`, { method, headers, body });
    const text = await response.text();
    let json: Record<string, any> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, any>) : {};
    } catch {
      json = {};
    }
    return { status: response.status, json, response };
  };

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

export const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
export const PASSWORD = "Sunny-day-42";
export const VALID_NPI = "1234567893";

let counter = 0;
export const uniqueEmail = (prefix = "user") => `${prefix}.${Date.now().toString(36)}.${counter++}@example.org`;

/** An account made verified and Active (as an operator makes one), signed in through the API. */
export const operatorAccount = async (server: TestServer, type: "physician" | "physician_staff", names: { firstName: string; lastName: string }) => {
  const email = uniqueEmail(type);
  const user = await server.services.run(Accounts.createVerifiedUser({ email, password: PASSWORD, type, ...names }));
  const signIn = await server.post("/user/sign-in", { email, password: b64(PASSWORD) });
  return { id: user.id, identifier: user.id, email, token: signIn.json.results.token as string };
};

/** Signs up, verifies through the e-mailed link, and signs in; returns the token. */
export const signUpVerified = async (server: TestServer, type: "parent" | "physician" | "other", email = uniqueEmail(type)) => {
  const signUp = await server.post("/user/sign-up", {
    first_name: "Alex",
    last_name: "Morgan",
    email,
    password: b64(PASSWORD),
    phone: "5551234567",
    type,
    register_type: "normal",
    // A physician gives an NPI number (CMS's example: valid check digit).
    ...(type === "physician" ? { npi: VALID_NPI } : {}),
  });
  if (signUp.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(signUp.json)}`);
  const mail = (await server.outbox()).filter((m) => m.to.includes(email)).at(-1);
  const link = mail && server.findLink(mail.text, "/verify-email");
  if (!link) throw new Error("no verification link");
  const u = new URL(link);
  const verify = await server.get(`/email/verify/${u.searchParams.get("id")}/${u.searchParams.get("token")}?expires=${u.searchParams.get("expires")}&signature=${u.searchParams.get("signature")}`);
  if (verify.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verify.json)}`);
  const signIn = await server.post("/user/sign-in", { email, password: b64(PASSWORD), device_type: "web" });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(signIn.json)}`);
  return { email, token: signIn.json.results.token as string, identifier: signIn.json.results.identifier as string, signIn: signIn.json };
};

/** Which database kinds this machine can run: PGlite always, PostgreSQL when reachable. */
export { databaseKinds } from "@crown/db/testing";

/**
 * Accepts every request awaiting `token`'s answer (ADR 56): an existing account a practice added
 * (a staff member, a parent) acts or sees the baby only after this. Answers how many were accepted.
 */
export const acceptLinkRequests = async (server: TestServer, token: string) => {
  const pending = await server.get("/user/link-requests", token);
  if (pending.status !== 200) throw new Error(`link requests: ${JSON.stringify(pending.json)}`);
  const requests = pending.json.results.data as Array<{ identifier: string; kind: string }>;
  for (const r of requests) {
    const accepted = await server.post("/user/link-requests/accept", { identifier: r.identifier, kind: r.kind }, token);
    if (accepted.status !== 200) throw new Error(`accept: ${JSON.stringify(accepted.json)}`);
  }
  return requests.length;
};
