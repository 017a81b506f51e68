import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, postgresServerUrl, type TestDatabase } from "@crown/db/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { b64, fetchApiCall, withSecondStep } from "./harness.ts";
import { type EventReader, readEvents } from "./sse.ts";
import { repoRoot, startCrown, stopCrown } from "./crown-processes.ts";
import { crownCommand } from "../crown-command.ts";

/**
 * Two real server processes (`pnpm crown start`) on one PostgreSQL database: an event committed by
 * one process reaches a tab connected to the other (LISTEN/NOTIFY), and a tab that reconnects to
 * either process with Last-Event-ID gets exactly what it missed.
 */

const adminUrl = await postgresServerUrl();
const PASSWORD = "Sunny-day-42";
const SECRET = `two-process-secret-${randomBytes(8).toString("hex")}`;

type Proc = Awaited<ReturnType<typeof startCrown>>;

/** `pnpm crown start` on a free port, without a worker, once it answers /readyz. */
const start = (env: Record<string, string>): Promise<Proc> => startCrown({ ...env, CROWN_SECRET: SECRET, CROWN_WORKER: "off" }, "crown-2proc-");

describe.skipIf(adminUrl === null)("live events across two server processes on one PostgreSQL", () => {
  let database: TestDatabase;
  let databaseUrl: string;
  let a: Proc | undefined;
  let b: Proc | undefined;
  const readers: EventReader[] = [];

  const api = async (p: Proc, method: string, url: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${p.url}/api/v1/en${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: (await res.json()) as any };
  };
  // The support admin passes the second step (issue 44); the process answering is the one named per call.
  let signingOn: Proc | undefined;
  const { signInCall } = withSecondStep(fetchApiCall(() => signingOn!.url));
  const signIn = async (p: Proc, email: string) => {
    signingOn = p;
    const r = await signInCall("POST", "/user/sign-in", { body: { email, password: b64(PASSWORD), device_type: "web" } });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json.results.token as string;
  };
  const open = async (p: Proc, token: string, lastEventId?: string) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "text/event-stream" };
    if (lastEventId) headers["last-event-id"] = lastEventId;
    const res = await fetch(`${p.url}/api/v1/en/events`, { headers });
    expect(res.status).toBe(200);
    const reader = readEvents(res);
    readers.push(reader);
    await reader.take((e) => e.event === "ready");
    return reader;
  };

  beforeAll(async () => {
    // A fresh, migrated database of its own on the PostgreSQL server.
    database = await createTestDatabase("postgres");
    databaseUrl = database.url!;
    const env = { ...process.env, DATABASE_URL: databaseUrl, CROWN_SECRET: SECRET, CROWN_DATA_DIR: mkdtempSync(path.join(tmpdir(), "crown-2proc-cli-")) };
    for (const [role, email] of [
      ["parent", "parent@two.test"],
      ["admin", "support@two.test"],
    ]) {
      const r = spawnSync(...crownCommand(["user:create", "--role", role!, "--email", email!, "--password", PASSWORD, "--first-name", role === "admin" ? "Ada" : "Paula"]), {
        cwd: repoRoot,
        env,
        encoding: "utf8",
      });
      if (r.status !== 0) throw new Error(`user:create failed: ${r.stdout}\n${r.stderr}`);
    }
    [a, b] = await Promise.all([start({ DATABASE_URL: databaseUrl }), start({ DATABASE_URL: databaseUrl })]);
  }, 240_000);

  afterAll(async () => {
    for (const r of readers) await r.close();
    await Promise.all([stopCrown(a), stopCrown(b)]);
    await database?.drop();
  }, 60_000);

  test("a message written through process A reaches the tab on process B, live; a reconnect with Last-Event-ID misses and repeats nothing", async () => {
    const parentToken = await signIn(a!, "parent@two.test");
    const supportToken = await signIn(b!, "support@two.test");

    // The parent's tab is on B; the support agent's on A.
    const parentTab = await open(b!, parentToken);
    const supportTab = await open(a!, supportToken);

    const sent = await api(a!, "POST", "/chat/conversation/messages", { text: "Hello from process A" }, parentToken);
    expect(sent.status).toBe(201);
    const conversation = sent.json.results.conversation.identifier as string;
    // Support's tab is on A too, but the parent's own echo travels A -> PostgreSQL -> B.
    const echo = await parentTab.take((e) => e.event === "chat.message", 10_000);
    expect(echo.data.message.text).toBe("Hello from process A");
    await supportTab.take((e) => e.event === "chat.message" && e.data.message.text === "Hello from process A");

    // Support answers through B; the parent's tab on B and a second parent tab on A both hear it once.
    const secondTab = await open(a!, parentToken);
    const reply = await api(b!, "POST", `/support/conversations/${conversation}/messages`, { text: "Answer from process B" }, supportToken);
    expect(reply.status).toBe(201);
    const onB = await parentTab.take((e) => e.event === "chat.message" && e.data.message.text === "Answer from process B");
    const onA = await secondTab.take((e) => e.event === "chat.message" && e.data.message.text === "Answer from process B");
    expect(onA.id).toBe(onB.id);

    // The tab on B drops; two replies are written through A; it reconnects to A with Last-Event-ID.
    const lastSeen = (await parentTab.take((e) => e.event === "chat.unread")).id!;
    await parentTab.close();
    for (const text of ["Missed one", "Missed two"]) {
      expect((await api(a!, "POST", `/support/conversations/${conversation}/messages`, { text }, supportToken)).status).toBe(201);
    }
    const resumed = await open(a!, parentToken, lastSeen);
    const first = await resumed.take((e) => e.event === "chat.message");
    const second = await resumed.take((e) => e.event === "chat.message");
    expect([first.data.message.text, second.data.message.text]).toEqual(["Missed one", "Missed two"]);
    // And then it is live again, for a message written through B.
    await api(b!, "POST", `/support/conversations/${conversation}/messages`, { text: "Live again" }, supportToken);
    expect((await resumed.take((e) => e.event === "chat.message")).data.message.text).toBe("Live again");
    const ids = resumed.events.filter((e) => e.id !== null).map((e) => Number(e.id));
    expect(ids[0]).toBe(Number(lastSeen) + 1);
    expect(ids).toEqual(ids.map((_, i) => Number(lastSeen) + 1 + i));
  });
});
