import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseKinds } from "./harness.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";
import { type EventReader, readEvents } from "./sse.ts";

/** "The bell updates live when a report is published": report status changes and the bell count over the stream. */
describe.each(await databaseKinds())("report status and the bell, live, on %s", (kind) => {
  let s: ReportServer;
  const readers: EventReader[] = [];
  beforeAll(async () => {
    s = await startReportServer(kind);
  });
  afterAll(async () => {
    for (const r of readers) await r.close();
    await s?.close();
  });

  const open = async (token: string) => {
    const response = await s.app.request("/api/v1/en/events", { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const reader = readEvents(response);
    readers.push(reader);
    await reader.take((e) => e.event === "ready");
    return reader;
  };

  test("the parent's and the physician's tabs hear each status change, and the bell rings when the report is published", async () => {
    const physician = await s.user("physician", "Grace", "Hopper");
    const parent = await s.user("parent", "Alex", "Rivera");
    const reviewer = await s.user("reviewer", "Rita", "Levi");
    const baby = await s.baby(parent.id, physician.id, "Mia", "2026-07-15");
    const parentTab = await open(parent.token);
    const physicianTab = await open(physician.token);

    const reportId = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier as string;
    const photo = await headPhoto({ rx: 170, ry: 210 });
    expect((await s.upload(parent.token, reportId, [{ name: "photo-1.jpg", bytes: photo }])).status).toBe(200);
    expect((await s.post("/report/finalize", { report_identifier: reportId }, parent.token)).status).toBe(200);
    const statusOf = (reader: EventReader, status: string) => reader.take((e) => e.event === "report.status" && e.data.status === status, 60_000);
    for (const status of ["uploading", "submitted", "analyzing", "analyzed"]) {
      expect((await statusOf(parentTab, status)).data).toMatchObject({ report_identifier: reportId, baby_identifier: baby.id });
      await statusOf(physicianTab, status);
    }
    const published = await s.post(`/review/report/${reportId}/publish`, {}, reviewer.token);
    expect(published.status).toBe(200);
    await statusOf(parentTab, "published");
    const bell = await parentTab.take((e) => e.event === "notifications.count");
    expect(bell.data).toMatchObject({ count: 1, kind: "report_published", subject_identifier: reportId });
    expect((await physicianTab.take((e) => e.event === "notifications.count")).data.count).toBe(1);
    // Reading the notifications sets every tab's bell back to 0.
    await s.post("/user/read-notifications", {}, parent.token);
    expect((await parentTab.take((e) => e.event === "notifications.count")).data.count).toBe(0);
  });
});
