import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseKinds } from "./harness.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

/** Issue 22, item 11: photos of one session that disagree beyond measurement error must be looked at before publishing. */

const pdfText = (bytes: Uint8Array): string => execFileSync("pdftotext", ["-layout", "-", "-"], { input: bytes }).toString().replace(/\s+/g, " ");

describe.each(await databaseKinds())("photos that disagree, through the API on %s", (kind) => {
  let s: ReportServer;
  beforeAll(async () => {
    s = await startReportServer(kind);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Four photos of a typical head (CI about 81) and one of a much wider one (CI about 95): one session that cannot all be right. */
  const analyzedReport = async () => {
    const physician = await s.user("physician", "Grace", "Hopper");
    const parent = await s.user("parent", "Alex", "Rivera");
    const baby = await s.baby(parent.id, physician.id, "Ivy", "2026-07-01");
    const id = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier as string;
    const shapes = [{ rx: 170, ry: 210 }, { rx: 171, ry: 210 }, { rx: 169, ry: 210 }, { rx: 170, ry: 209 }, { rx: 200, ry: 210 }];
    const files = await Promise.all(shapes.map(async (shape, i) => ({ name: `p${i + 1}.jpg`, bytes: await headPhoto(shape) })));
    expect((await s.upload(parent.token, id, files)).status).toBe(200);
    expect((await s.post("/report/finalize", { report_identifier: id }, parent.token)).status).toBe(200);
    await s.waitFor(parent.token, id, ["analyzed"]);
    return { id, parent };
  };

  test("the console is told, publishing is refused until each counted photo is confirmed, and the PDF shows the spread", async () => {
    const reviewer = await s.user("reviewer", "Rita", "Levi");
    const { id, parent } = await analyzedReport();
    const detail = await s.get(`/review/report/${id}`, reviewer.token);
    expect(detail.status).toBe(200);
    const summary = detail.json.results.summary;
    expect(summary.photos_disagree).toBe(true);
    expect(summary.unconfirmed).toBe(5);
    const ci = summary.agreement.find((a: any) => a.index === "CI");
    expect(ci.disagree).toBe(true);
    expect(ci.max - ci.min).toBeGreaterThan(ci.limit);
    // The queue says it too.
    const queued = (await s.post("/review/queue?page=1", {}, reviewer.token)).json.results.data.find((r: any) => r.report_identifier === id);
    expect(queued.summary.photos_disagree).toBe(true);

    const refused = await s.post(`/review/report/${id}/publish`, {}, reviewer.token);
    expect(refused.status).toBe(422);
    expect(refused.json.errors.report_identifier[0]).toMatch(/^The accepted photos disagree: CI ranges from 8\d\.\d to 9\d\.\d over 5 photos \(measurement error explains up to \d\.\d\)\. Accept or reject each counted photo before publishing\.$/);

    // Confirming four is not enough; the fifth too, and the publish goes through.
    const photos = detail.json.results.attachments.filter((a: any) => a.measurement?.counted);
    for (const a of photos.slice(0, 4)) expect((await s.post(`/review/report/${id}/decision`, { attachment_identifier: a.identifier, decision: "accept" }, reviewer.token)).status).toBe(200);
    expect((await s.post(`/review/report/${id}/publish`, {}, reviewer.token)).status).toBe(422);
    const last = await s.post(`/review/report/${id}/decision`, { attachment_identifier: photos[4].identifier, decision: "accept" }, reviewer.token);
    expect(last.json.results.unconfirmed).toBe(0);
    expect(last.json.results.photos_disagree).toBe(true);
    const published = await s.post(`/review/report/${id}/publish`, {}, reviewer.token);
    expect(published.status).toBe(200);

    const pdf = await s.get(`/report/${id}/parent-download`, parent.token);
    expect(pdf.status).toBe(200);
    const text = pdfText(new Uint8Array(await pdf.response.arrayBuffer()));
    expect(text).toContain("The photos of this session disagree");
    expect(text).toMatch(/CI ranges from 8\d\.\d to 9\d\.\d over 5 photos \(measurement error explains up to \d\.\d\)/);
    expect(text).toContain("A reviewer accepted or rejected each photo.");
  });

  test("rejecting the photo that does not fit leaves photos that agree, and the report publishes without more", async () => {
    const reviewer = await s.user("reviewer", "Ravi", "Okafor");
    const { id } = await analyzedReport();
    const detail = await s.get(`/review/report/${id}`, reviewer.token);
    const wide = detail.json.results.attachments.find((a: any) => a.file_name === "p5.jpg");
    const decided = await s.post(`/review/report/${id}/decision`, { attachment_identifier: wide.identifier, decision: "reject", reason: "Image is blurry" }, reviewer.token);
    expect(decided.status).toBe(200);
    expect(decided.json.results.photos_disagree).toBe(false);
    expect(decided.json.results.unconfirmed).toBe(4);
    expect((await s.post(`/review/report/${id}/publish`, {}, reviewer.token)).status).toBe(200);
  });
});
