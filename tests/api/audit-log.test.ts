import { Accounts } from "@crown/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { b64, databaseKinds, PASSWORD, startTestServer, type TestServer, uniqueEmail } from "./harness.ts";

/**
 * Issue 22 item 4: the admin console's audit log. Filters by actor (e-mail or identifier), subject,
 * action and dates; pages newest first by cursor; exports CSV; every view and export is audited.
 */

describe.each(await databaseKinds())("the audit log view on %s", (kind) => {
  let server: TestServer;
  let admin: string;
  let parent: { email: string; id: string; token: string };
  beforeAll(async () => {
    server = await startTestServer(kind);
    const account = async (type: "admin" | "parent") => {
      const email = uniqueEmail(type);
      const user = await server.services.run(Accounts.createVerifiedUser({ email, password: PASSWORD, type, firstName: "Aud", lastName: "It" }));
      const token = (await server.post("/user/sign-in", { email, password: b64(PASSWORD) })).json.results.token as string;
      return { email, id: user.id, token };
    };
    admin = (await account("admin")).token;
    parent = await account("parent");
    // Three profile reads by the parent: entries with the parent as actor and subject.
    for (let i = 0; i < 3; i++) await server.get("/user/profile", parent.token);
  });
  afterAll(async () => {
    await server?.close();
  });

  const view = (query: string, token = admin) => server.get(`/admin/audit-events${query}`, token);

  test("the OpenAPI document lists the audit log routes", async () => {
    const paths = (await server.get("/openapi.json")).json.paths as Record<string, Record<string, unknown>>;
    expect(paths["/admin/audit-events"]?.get).toBeDefined();
    expect(paths["/admin/audit-events/export"]?.get).toBeDefined();
  });

  test("only admins may look: 401 without a token, 403 for others", async () => {
    expect((await view("", null as unknown as string)).status).toBe(401);
    expect((await view("", parent.token)).status).toBe(403);
    expect((await server.get("/admin/audit-events/export", parent.token)).status).toBe(403);
  });

  test("filters by actor e-mail, action and subject, newest first, paged by cursor without overlap", async () => {
    const first = await view(`?actor=${encodeURIComponent(parent.email.toUpperCase())}&action=profile.read&per_page=2`);
    expect(first.status).toBe(200);
    const page1 = first.json.results;
    expect(page1.data).toHaveLength(2);
    expect(page1.data.every((e: any) => e.action === "profile.read" && e.actor_identifier === parent.id && e.actor_email === parent.email)).toBe(true);
    expect(Number(page1.data[0].identifier)).toBeGreaterThan(Number(page1.data[1].identifier));
    expect(page1.next_cursor).toBe(page1.data[1].identifier);

    const page2 = (await view(`?actor=${parent.id}&action=profile.read&per_page=2&before=${page1.next_cursor}`)).json.results;
    expect(page2.data).toHaveLength(1);
    expect(page2.next_cursor).toBeNull();
    expect(Number(page2.data[0].identifier)).toBeLessThan(Number(page1.data[1].identifier));

    const bySubject = (await view(`?subject=${parent.id}&action=account.sign_in`)).json.results.data;
    expect(bySubject).toHaveLength(1);
    expect((await view(`?actor=nobody-${Date.now()}@example.org`)).json.results.data).toEqual([]);
  });

  test("dates filter inclusively; bad dates and cursors answer 422", async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect((await view(`?actor=${parent.id}&from=${today}&to=${today}`)).json.results.data.length).toBeGreaterThanOrEqual(4);
    expect((await view(`?actor=${parent.id}&to=2020-01-01`)).json.results.data).toEqual([]);
    const bad = await view("?from=2026-13-40");
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual({ from: ["Please enter proper date in format (YYYY-MM-DD)"] });
    expect((await view("?before=abc")).status).toBe(422);
    expect((await view("?from=2026-02-02&to=2026-02-01")).json.errors).toEqual({ from: ["The start date must not be after the end date"] });
  });

  test("every view and export is itself audited; the export is CSV with a header and one row per entry", async () => {
    const marker = `?action=profile.read&subject=${parent.id}`;
    await view(marker);
    const exported = await server.call("GET", `/admin/audit-events/export${marker}`, { token: admin });
    expect(exported.status).toBe(200);
    expect(exported.response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(exported.response.headers.get("content-disposition")).toBe('attachment; filename="audit-log.csv"');
    const lines = (await exported.response.text()).trim().split("\n");
    expect(lines[0]).toBe("sequence,at,action,actor_email,actor_identifier,subject_identifier,ip,details");
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).every((l) => l.includes(",profile.read,") && l.includes(parent.email))).toBe(true);

    const viewed = (await view("?action=audit.viewed&per_page=100")).json.results.data;
    expect(viewed.some((e: any) => e.details.subject === parent.id && e.details.action === "profile.read")).toBe(true);
    const exports = (await view("?action=audit.exported")).json.results.data;
    expect(exports[0]).toMatchObject({ action: "audit.exported", details: { subject: parent.id, rows: 3 } });
  });
});
