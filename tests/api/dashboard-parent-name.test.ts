import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Babies } from "@crown/core";
import { databaseKinds } from "./harness.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

/**
 * Issue 46, walk item 12: the provider dashboard's "Parent name" was blank for a patient whose caregiver has
 * no account linked yet (added without one, or asked and not answered). Not a mapping fault: there is no
 * parent to name. The list now says whom the practice named, and the page shows that instead of nothing.
 */
describe.each(await databaseKinds())("the provider dashboard's parent column on %s", (kind) => {
  let s: ReportServer;
  beforeAll(async () => {
    s = await startReportServer(kind);
  });
  afterAll(async () => {
    await s?.close();
  });

  test("a published report of a patient without a caregiver account carries the caregiver e-mail the practice typed", async () => {
    const physician = await s.user("physician", "Grace", "Okafor");
    const reviewer = await s.user("reviewer", "Rita", "Levi");
    const baby = await s.baby(null, physician.id, "Noa");
    await (s.services.run as <A>(e: Effect.Effect<A, unknown, any>) => Promise<A>)(Effect.flatMap(Babies, (b) => b.update(baby.id, { caregiverEmail: "carer@example.org", updatedAt: new Date() })));
    const reportId = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, physician.token)).json.results.report_identifier as string;
    expect((await s.upload(physician.token, reportId, [{ name: "photo-1.jpg", bytes: await headPhoto({ rx: 170, ry: 210 }) }])).status).toBe(200);
    expect((await s.post("/report/finalize", { report_identifier: reportId }, physician.token)).status).toBe(200);
    await s.waitFor(physician.token, reportId, ["analyzed"], 120_000);
    expect((await s.post(`/review/report/${reportId}/publish`, {}, reviewer.token)).status).toBe(200);

    const row = (await s.post("/report/list?page=1", { type: "new" }, physician.token)).json.results.data.find((r: any) => r.identifier === reportId);
    expect(row).toMatchObject({ parent_name: null, caregiver_email: "carer@example.org" });
  }, 240_000);
});
