import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type ReportServer, startReportServer } from "./report-fixtures.ts";

/**
 * The capture-to-report flow on the model's own rendered samples (models/head-contour/samples) with
 * the shipped model and ffmpeg, through the API on the embedded database. The model's accuracy is the
 * model's tests' business; here every photo must come out measured or explained, the video's frames
 * measured, and the reviewer's figures must be the ones printed in the PDF.
 */
const SAMPLES = fileURLToPath(new URL("../../models/head-contour/samples/", import.meta.url));
const MODEL = fileURLToPath(new URL("../../models/head-contour/head-contour.onnx", import.meta.url));
const GOOD = ["good-1-typical.jpg", "good-2-brachy.jpg", "good-3-dolicho.jpg", "good-4-plagio.jpg", "good-5-plagio-brachy.jpg", "good-6-plagio-dolicho.jpg"];
const ready = existsSync(MODEL) && GOOD.every((f) => existsSync(`${SAMPLES}${f}`)) && existsSync(`${SAMPLES}clip.mp4`);

describe.skipIf(!ready)("report pipeline on the model's samples with the shipped model", () => {
  let s: ReportServer;
  beforeAll(async () => {
    s = await startReportServer("pglite", { model: "real" });
  });
  afterAll(async () => {
    await s?.close();
  });

  test("6 sample photos and the sample clip: analysed on its own, reviewed, published, figures match the PDF", async () => {
    expect(s.services.pipeline.model).toBeNull();
    const physician = await s.user("physician", "Grace", "Hopper");
    const parent = await s.user("parent", "Alex", "Rivera");
    const reviewer = await s.user("reviewer", "Rita", "Levi");
    const baby = await s.baby(parent.id, physician.id, "Noor", "2026-08-10");
    const reportId = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier;
    const files = [...GOOD, "clip.mp4"].map((name) => ({ name, bytes: new Uint8Array(readFileSync(`${SAMPLES}${name}`)) }));
    const up = await s.upload(parent.token, reportId, files);
    expect(up.status).toBe(200);
    expect(up.json.results.attachments.map((a: any) => a.file_type)).toEqual([...GOOD.map(() => "image"), "video"]);
    expect((await s.post("/report/finalize", { report_identifier: reportId }, parent.token)).status).toBe(200);
    await s.waitFor(parent.token, reportId, ["analyzed"], 300_000);

    const detail = (await s.get(`/review/report/${reportId}`, reviewer.token)).json.results;
    const images = detail.attachments.filter((a: any) => a.kind === "image");
    expect(images).toHaveLength(6);
    for (const a of images) {
      // Each photo is measured, or its reasons say why not.
      expect(a.measurement).not.toBeNull();
      expect(a.measurement.ci !== null || a.measurement.automatic.reasons.length > 0 || a.measurement.error !== null).toBe(true);
    }
    expect(detail.attachments.filter((a: any) => a.kind === "frame").length).toBeGreaterThan(0);
    expect(detail.summary.problems.join(" ")).not.toMatch(/ffmpeg/);

    // The reviewer counts every photo the geometry could measure, then publishes.
    const measurable = detail.attachments.filter((a: any) => a.measurement?.ci !== null && a.measurement?.ci !== undefined);
    expect(measurable.length).toBeGreaterThan(0);
    for (const a of measurable) await s.post(`/review/report/${reportId}/decision`, { attachment_identifier: a.identifier, decision: "accept" }, reviewer.token);
    const published = await s.post(`/review/report/${reportId}/publish`, {}, reviewer.token);
    expect(published.status).toBe(200);
    const summary = published.json.results.summary;
    expect(summary.ci.count).toBe(measurable.length);

    const download = await s.get(`/report/${reportId}/download`, physician.token);
    expect(download.response.headers.get("content-disposition")).toBe('attachment; filename="Result.pdf"');
    const { execFileSync } = await import("node:child_process");
    const text = execFileSync("pdftotext", ["-", "-"], { input: new Uint8Array(await download.response.arrayBuffer()) }).toString();
    expect(text).toContain(summary.ci.median.toFixed(1));
    expect(text).toContain(summary.cvai.median.toFixed(1));
  });
});
