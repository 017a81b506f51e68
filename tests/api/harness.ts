import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Accounts } from "@crown/core";
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

  return {
    app,
    services,
    dataDir,
    call,
    get: (url: string, token?: string | null) => call("GET", url, { token }),
    post: (url: string, body?: unknown, token?: string | null) => call("POST", url, { body, token }),
    outbox: () => readOutbox(dataDir),
    findLink,
    close: async () => {
      await services.close();
      await testDb.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
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
