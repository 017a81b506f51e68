import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseKinds } from "./harness.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

interface AuditRow {
  action: string;
  actor_id: string | null;
  subject_id: string | null;
  on_behalf_of: string | null;
  ip: string | null;
  request_id: string | null;
  details: Record<string, unknown>;
}

/** Issue 15 item 7: every read of a child's data leaves one audit row per child record, one insert per request. */
describe.each(await databaseKinds())("audit of reads of a child's data on %s", (kind) => {
  let s: ReportServer;
  let parent: { id: string; token: string };
  let physician: { id: string; token: string };
  let staff: { id: string; token: string };
  let babyId: string;
  const reportIds: string[] = [];
  let attachment: { identifier: string; extension: string };

  beforeAll(async () => {
    s = await startReportServer(kind);
    parent = await s.user("parent");
    physician = await s.user("physician");
    staff = await s.user("physician_staff");
    const reviewer = await s.user("reviewer");
    await s.delegate(physician.id, staff.id);
    babyId = (await s.baby(parent.id, physician.id, "Noa")).id;
    for (let i = 0; i < 2; i++) {
      const id = (await s.post("/report/prepare", { baby_identifier: babyId, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier as string;
      // One head, photographed slightly differently: photos that agree publish without a reviewer's confirmation (ADR 35).
      const photos = await Promise.all([0, 1, 2].map(async (n) => ({ name: `p${n}.jpg`, bytes: await headPhoto({ rx: 160 + n, ry: 200 }) })));
      const up = await s.upload(parent.token, id, photos);
      attachment ??= up.json.results.attachments[0];
      await s.post("/report/finalize", { report_identifier: id }, parent.token);
      await s.waitFor(parent.token, id, ["analyzed"]);
      const published = await s.post(`/review/report/${id}/publish`, {}, reviewer.token);
      if (published.status !== 200) throw new Error(`publish failed: ${JSON.stringify(published.json)}`);
      reportIds.push(id);
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  /** The rows one request wrote (by its request id, read from the answer's header). */
  const rowsOf = async (response: Response) => {
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toBeTruthy();
    const rows = await sql<AuditRow>`select action, actor_id, subject_id, on_behalf_of, ip, request_id, details from audit_events where request_id = ${requestId} order by id`.execute(s.db);
    return rows.rows;
  };

  /** Counts INSERTs into audit_events while `run` runs (PostgreSQL statistics are not per statement on PGlite). */
  const auditInserts = async (run: () => Promise<unknown>) => {
    const before = (await sql<{ n: string }>`select count(distinct (at, request_id)) as n from audit_events`.execute(s.db)).rows[0]!.n;
    await run();
    const after = (await sql<{ n: string }>`select count(distinct (at, request_id)) as n from audit_events`.execute(s.db)).rows[0]!.n;
    return Number(after) - Number(before);
  };

  test("GET /report/{id} leaves one row: actor, report, baby, address and request id", async () => {
    const res = await s.call("GET", `/report/${reportIds[0]}`, { token: parent.token });
    expect(res.status).toBe(200);
    const rows = await rowsOf(res.response);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "report.viewed", actor_id: parent.id, subject_id: reportIds[0], on_behalf_of: null, details: { baby: babyId } });
    expect(rows[0]!.ip).toMatch(/^10\.1\.0\.\d+$/);
  });

  test("staff reading for a physician are recorded as acting on the physician's behalf", async () => {
    const res = await s.call("GET", `/report/${reportIds[1]}`, { token: staff.token });
    expect(res.status).toBe(200);
    expect(await rowsOf(res.response)).toMatchObject([{ action: "report.viewed", actor_id: staff.id, on_behalf_of: physician.id, subject_id: reportIds[1] }]);
    const list = await s.call("POST", "/report/results?page=1", { token: staff.token, body: { physician_id: physician.id, results_for_staff: true } });
    expect(list.status).toBe(200);
    const rows = await rowsOf(list.response);
    expect(rows.map((r) => r.subject_id).sort()).toEqual([...reportIds].sort());
    for (const r of rows) expect(r).toMatchObject({ action: "report.listed", actor_id: staff.id, on_behalf_of: physician.id, details: { list: "results" } });
  });

  test("every list of a child's reports leaves one row per report shown, written in one insert", async () => {
    const lists: Array<[string, string, { token: string }, unknown]> = [
      ["POST", "/report/my-uploads?page=1", parent, { baby_identifier: "" }],
      ["POST", "/report/parent-results?page=1", parent, {}],
      ["POST", "/report/list?page=1", parent, { per_page: 10 }],
      ["POST", "/report/results?page=1", physician, {}],
      ["POST", "/report/list?page=1", physician, {}],
    ];
    for (const [method, url, who, body] of lists) {
      const payload = url.startsWith("/report/my-uploads") ? { baby_identifier: babyId } : body;
      let response: Response | null = null;
      const inserts = await auditInserts(async () => {
        const res = await s.call(method, url, { token: who.token, body: payload });
        expect(res.status, url).toBe(200);
        response = res.response;
      });
      const rows = await rowsOf(response!);
      expect(rows.map((r) => r.subject_id).sort(), url).toEqual([...reportIds].sort());
      expect(new Set(rows.map((r) => r.action)), url).toEqual(new Set(["report.listed"]));
      // One statement for the page: every row has the same timestamp and request id.
      expect(inserts, url).toBe(1);
    }
  });

  test("a thumbnail read and the parent's babies list are audited", async () => {
    const thumb = await s.call("GET", `/report/thumb/${reportIds[0]}/${attachment.identifier}.${attachment.extension}`, { token: physician.token });
    expect(thumb.status).toBe(200);
    expect(await rowsOf(thumb.response)).toMatchObject([{ action: "report.thumbnail", actor_id: physician.id, subject_id: reportIds[0], details: { attachment: attachment.identifier } }]);
    // No copy of a child's photo or report stays in a browser or proxy cache (a shared tablet included).
    const photo = await s.call("GET", `/report/attachment/${reportIds[0]}/${attachment.identifier}.${attachment.extension}`, { token: parent.token });
    const pdf = await s.call("GET", `/report/${reportIds[0]}/parent-download`, { token: parent.token });
    for (const file of [thumb, photo, pdf]) {
      expect(file.status).toBe(200);
      expect(file.response.headers.get("cache-control")).toBe("private, no-store");
    }
    const babies = await s.call("GET", "/user/babies", { token: parent.token });
    expect(babies.status).toBe(200);
    expect(await rowsOf(babies.response)).toMatchObject([{ action: "baby.listed", actor_id: parent.id, subject_id: babyId }]);
  });

  test("behind a trusted proxy, the address is the one the proxy saw (the rightmost X-Forwarded-For entry)", async () => {
    const res = await s.app.request(`/api/v1/en/report/${reportIds[0]}`, { headers: { authorization: `Bearer ${parent.token}`, "x-forwarded-for": "6.6.6.6, 10.7.7.7" } });
    expect(res.status).toBe(200);
    expect((await rowsOf(res))[0]!.ip).toBe("10.7.7.7");
  });
});
