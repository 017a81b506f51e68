import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseKinds } from "./harness.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

/**
 * A report a staff member captured belongs to the physician's practice, not to her (ADR 23): once
 * her delegation ends she reaches none of it, and the practice carries on with it without her.
 */
describe.each(await databaseKinds())("a removed staff member's reports on %s", (kind) => {
  let s: ReportServer;
  beforeAll(async () => {
    s = await startReportServer(kind);
  });
  afterAll(async () => {
    await s?.close();
  });

  test("a removed nurse gets 404 on the report, its files and uploads; the practice keeps it", async () => {
    const parent = await s.user("parent");
    const physician = await s.user("physician");
    const nurse = await s.user("physician_staff");
    const colleague = await s.user("physician_staff");
    // Another practice keeps her signed in, so the answers below are the report's rule, not a 401.
    const elsewhere = await s.user("physician");
    await s.delegate(physician.id, nurse.id);
    await s.delegate(physician.id, colleague.id);
    await s.delegate(elsewhere.id, nurse.id);
    const baby = await s.baby(parent.id, physician.id, "Noa");

    const prepared = await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, nurse.token);
    expect(prepared.status).toBe(201);
    const reportId: string = prepared.json.results.report_identifier;
    const first = await s.upload(nurse.token, reportId, [{ name: "a.jpg", bytes: await headPhoto({ rx: 160, ry: 200 }) }]);
    expect(first.status).toBe(200);
    const attachment = first.json.results.attachments[0];
    const file = `${reportId}/${attachment.identifier}.${attachment.extension}`;
    expect((await s.get(`/report/${reportId}`, nurse.token)).status).toBe(200);

    const removed = await s.post("/physician/staff/remove", { staff_identifier: nurse.id }, physician.token);
    expect(removed.status).toBe(200);

    expect((await s.get(`/report/${reportId}`, nurse.token)).status).toBe(404);
    expect((await s.get(`/report/attachment/${file}`, nurse.token)).status).toBe(404);
    expect((await s.get(`/report/thumb/${file}`, nurse.token)).status).toBe(404);
    const again = await s.upload(nurse.token, reportId, [{ name: "b.jpg", bytes: await headPhoto({ rx: 161, ry: 200 }) }]);
    expect(again.status).toBe(404);
    expect((await s.post("/report/finalize", { report_identifier: reportId }, nurse.token)).status).toBe(404);
    expect((await s.post("/report/my-uploads", { baby_identifier: baby.id }, nurse.token)).status).toBe(404);

    // Nothing she tried got in, and the report is the practice's: her colleague and the physician carry on.
    const detail = await s.get(`/report/${reportId}`, physician.token);
    expect(detail.status).toBe(200);
    expect(detail.json.results.attachments).toHaveLength(1);
    const byColleague = await s.upload(colleague.token, reportId, [{ name: "c.jpg", bytes: await headPhoto({ rx: 162, ry: 200 }) }]);
    expect(byColleague.status).toBe(200);
    const heard = async (userId: string) =>
      (await sql<{ n: number }>`select count(*)::int as n from live_events where user_id = ${userId} and type = 'report.status'`.execute(s.db)).rows[0]!.n;
    const nurseHeard = await heard(nurse.id);
    const physicianHeard = await heard(physician.id);
    expect((await s.post("/report/finalize", { report_identifier: reportId }, physician.token)).status).toBe(200);
    // The report's changes are no longer published to her (they would name the baby); the physician still hears them.
    expect(await heard(nurse.id)).toBe(nurseHeard);
    expect(await heard(physician.id)).toBeGreaterThan(physicianHeard);
  });

  test("the family's report stays the parent's to capture into, even for the baby's practice", async () => {
    const parent = await s.user("parent");
    const physician = await s.user("physician");
    const baby = await s.baby(parent.id, physician.id, "Eli");
    const reportId: string = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results
      .report_identifier;
    expect((await s.get(`/report/${reportId}`, physician.token)).status).toBe(200);
    const byPhysician = await s.upload(physician.token, reportId, [{ name: "a.jpg", bytes: await headPhoto({ rx: 160, ry: 200 }) }]);
    expect(byPhysician.status).toBe(404);
    expect((await s.upload(parent.token, reportId, [{ name: "a.jpg", bytes: await headPhoto({ rx: 160, ry: 200 }) }])).status).toBe(200);
  });
});
