import { sql, type KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seedScale } from "@crown/db/testing-scale";
import { b64, databaseKinds, PASSWORD } from "./harness.ts";
import { type ReportServer, startReportServer } from "./report-fixtures.ts";

/**
 * Statements per list request (issue 19, ADR 0072): the names, babies, read flags and previous results
 * of a page are joined or read in one query, so a page of 50 costs the same statements as a page of 10.
 */
describe.each(await databaseKinds())("statements per list request on %s", (kind) => {
  let s: ReportServer;
  let counting = false;
  let statements = 0;
  let counts = 0;
  const counter: KyselyPlugin = {
    transformQuery: (args) => {
      // A statement that counts a list carries the capped count's alias.
      if (counting && JSON.stringify(args.node).includes('"capped_total"')) counts++;
      return args.node;
    },
    transformResult: async (args) => {
      if (counting) statements++;
      return args.result;
    },
  };
  const tokens: Record<string, string> = {};
  let babyId = "";

  beforeAll(async () => {
    s = await startReportServer(kind, { worker: false, observe: counter });
    const data = await seedScale(s.db, { sizes: [120], prefix: "stm" });
    // The seeded people sign in with the harness's password (its hash taken from a user the harness made).
    const admin = await s.user("admin");
    await sql`update users set password_hash = (select password_hash from users where id = ${admin.id}) where id like 'stm-%'`.execute(s.db);
    for (const [role, email] of [["physician", data.physicians[0]!.email], ["reviewer", data.reviewer.email], ["parent", data.parent.email]] as const) {
      const r = await s.post("/user/sign-in", { email, password: b64(PASSWORD), device_type: "web" });
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      tokens[role] = r.json.results.token;
    }
    tokens.admin = admin.token;
    babyId = data.parent.babyId;
  }, 180_000);
  afterAll(() => s?.close());

  const count = async (call: () => Promise<{ status: number; json: any }>) => {
    statements = 0;
    counts = 0;
    counting = true;
    const r = await call();
    counting = false;
    expect(r.status, JSON.stringify(r.json).slice(0, 300)).toBe(200);
    return { statements, counts, rows: (r.json.results.data as unknown[]).length, total: r.json.results.total as number };
  };

  test.each([
    ["results", "physician", "/report/results?page=2", {}],
    ["results, searched", "physician", "/report/results?page=1", { search: "Smith" }],
    ["dashboard", "physician", "/report/list?page=1", {}],
    ["parent results", "parent", "/report/parent-results?page=1", {}],
    ["my uploads", "parent", "/report/my-uploads?page=1", { baby_identifier: "BABY" }],
    ["review queue", "reviewer", "/review/queue?page=1", {}],
  ] as const)("%s: the same statements for 50 rows as for 10", async (_name, who, url, body) => {
    const payload = JSON.parse(JSON.stringify(body).replace("BABY", babyId));
    const ten = await count(() => s.post(url, { ...payload, per_page: 10 }, tokens[who]));
    const fifty = await count(() => s.post(url, { ...payload, per_page: 50 }, tokens[who]));
    expect(fifty.rows).toBeGreaterThanOrEqual(Math.min(ten.rows, 1));
    expect(fifty.statements).toBe(ten.statements);
    expect(ten.statements).toBeLessThanOrEqual(8);
  });

  test("the results page: the session with its account, the page with its count, and the read audit (ADR 0090)", async () => {
    const page = await count(() => s.post("/report/results?page=1", { per_page: 10 }, tokens.physician));
    expect(page.rows).toBe(10);
    expect(page.statements).toBeLessThanOrEqual(3);
  });

  test("a search counted in the last seconds is not counted again; its rows stay live (ADR 0100)", async () => {
    const search = { per_page: 10, search: "son" };
    const first = await count(() => s.post("/report/results?page=1", search, tokens.physician));
    const again = await count(() => s.post("/report/results?page=1", search, tokens.physician));
    const next = await count(() => s.post("/report/results?page=2", search, tokens.physician));
    expect(first.counts).toBe(1);
    expect(again.counts).toBe(0);
    expect(next.counts).toBe(0);
    expect(again.total).toBe(first.total);
    expect(again.rows).toBe(first.rows);
    expect(first.total).toBeGreaterThan(10);
    // Another search, or the plain list, is counted as before.
    const other = await count(() => s.post("/report/results?page=1", { per_page: 10, search: "ill" }, tokens.physician));
    const plain = await count(() => s.post("/report/results?page=1", { per_page: 10 }, tokens.physician));
    expect(other.counts).toBe(1);
    expect(plain.counts).toBe(1);
  });

  test("the admin's user directory: one page, whatever the number of accounts", async () => {
    const ten = await count(() => s.get("/admin/users?page=1&per_page=10", tokens.admin));
    const searched = await count(() => s.get("/admin/users?page=1&search=Scale", tokens.admin));
    expect(ten.rows).toBe(10);
    expect(searched.statements).toBe(ten.statements);
  });
});
