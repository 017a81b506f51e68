import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseKinds } from "./harness.ts";
import { type ReportServer, startReportServer } from "./report-fixtures.ts";

/** `POST /report/prepare` with an Idempotency-Key (ADR 0141): a retry answers the first call's report and makes no other. */
describe.each(await databaseKinds())("Idempotency-Key on report/prepare (%s)", (kind) => {
  let s: ReportServer;
  beforeAll(async () => {
    s = await startReportServer(kind, { worker: false });
  });
  afterAll(async () => {
    await s?.close();
  });

  test("the same key answers the same report; another key, no key or another caller makes a new one; retries at once make one", async () => {
    const parent = await s.user("parent");
    const other = await s.user("parent");
    const baby = await s.baby(parent.id, null);
    const prepare = async (token: string, key?: string) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      if (key !== undefined) headers["idempotency-key"] = key;
      const res = await s.app.request("/api/v1/en/report/prepare", { method: "POST", headers, body: JSON.stringify({ baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }) });
      return { status: res.status, json: (await res.json()) as any };
    };
    const reports = async () => Number((await s.db.selectFrom("reports").select((eb) => eb.fn.countAll<number>().as("n")).where("baby_id", "=", baby.id).executeTakeFirstOrThrow()).n);

    const first = await prepare(parent.token, "retry-1");
    expect(first.status).toBe(201);
    const again = await prepare(parent.token, "retry-1");
    expect(again).toEqual(first);
    expect(await reports()).toBe(1);

    expect((await prepare(parent.token, "retry-2")).json.results.report_identifier).not.toBe(first.json.results.report_identifier);
    expect((await prepare(parent.token)).status).toBe(201);
    // A key that is not printable ASCII, or too long, is no key: the call runs as a new one.
    expect((await prepare(parent.token, "x".repeat(256))).status).toBe(201);
    expect(await reports()).toBe(4);
    // Another caller's key is hers: it refers to nothing of this parent's (and she may not capture for this baby).
    expect((await prepare(other.token, "retry-1")).status).toBe(404);

    // Retries sent together: one report, every answer the same.
    const together = await Promise.all(Array.from({ length: 4 }, () => prepare(parent.token, "together")));
    expect(new Set(together.map((r) => r.json.results.report_identifier)).size).toBe(1);
    expect(together.every((r) => r.status === 201)).toBe(true);
    expect(await reports()).toBe(5);
  });
});
