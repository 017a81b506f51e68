import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import sharp from "sharp";
import { bandOf, bandRange, CI_BANDS, CVAI_BANDS, SEVERITY_CITATION } from "@crown/core/measurement/index";
import { REPORT_DISCLAIMER } from "@crown/core/report/index";
import { databaseKinds } from "./harness.ts";
import { drawnCi, headPhoto, headVideo, type ReportServer, startReportServer } from "./report-fixtures.ts";

/** The PDF's text, by poppler's pdftotext (Debian poppler-utils, installed by .ci/run). */
const pdfText = (bytes: Uint8Array): string => execFileSync("pdftotext", ["-layout", "-", "-"], { input: bytes }).toString();

describe.each(await databaseKinds())("report pipeline through the API on %s", (kind) => {
  let s: ReportServer;
  beforeAll(async () => {
    s = await startReportServer(kind);
  });
  afterAll(async () => {
    await s?.close();
  });

  // Seven files measured, two PDFs rendered, and a physician and reviewer who each set up and answer a
  // second step (issue 44): past a minute on a loaded 2-core machine.
  test("done when: prepare, 6 photos and a video, finalize; analysis on its own; a reviewer corrects one photo and publishes; both download Result.pdf; unread then read", async () => {
    const physician = await s.user("physician", "Grace", "Hopper");
    const parent = await s.user("parent", "Alex", "Rivera");
    const reviewer = await s.user("reviewer", "Rita", "Levi");
    const baby = await s.baby(parent.id, physician.id, "Mia", "2026-07-15");

    const prepared = await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token);
    expect(prepared.status).toBe(201);
    const reportId = prepared.json.results.report_identifier as string;

    const shapes = [
      { rx: 170, ry: 210 },
      { rx: 172, ry: 210 },
      { rx: 168, ry: 210 },
      { rx: 171, ry: 212 },
      { rx: 169, ry: 208 },
      { rx: 170, ry: 211 },
    ];
    const photos = await Promise.all(shapes.map((shape) => headPhoto(shape)));
    const video = await headVideo({ rx: 170, ry: 210 }, 2);
    // Two calls: photos, then the video, with the identifier after the files in the second.
    const first = await s.upload(parent.token, reportId, photos.slice(0, 4).map((bytes, i) => ({ name: `photo-${i + 1}.jpg`, bytes })));
    expect(first.status).toBe(200);
    expect(first.json.message).toBe("Images Uploaded Successfully");
    expect(first.json.results.attachments).toHaveLength(4);
    const rest = [...photos.slice(4).map((bytes, i) => ({ name: `photo-${i + 5}.jpeg`, bytes })), ...(video ? [{ name: "capture.mp4", bytes: video }] : [])];
    const second = await s.upload(parent.token, reportId, rest, false);
    expect(second.status).toBe(200);
    expect(second.json.results.attachments).toHaveLength(rest.length);
    for (const a of [...first.json.results.attachments, ...second.json.results.attachments]) expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);

    // A retried call stores nothing twice.
    const retry = await s.upload(parent.token, reportId, [{ name: "photo-1.jpg", bytes: photos[0]! }]);
    expect(retry.status).toBe(200);
    const mine = await s.post("/report/my-uploads?page=1", { baby_identifier: baby.id }, parent.token);
    expect(mine.json.results.data[0].attachments).toHaveLength(rest.length + 4);

    const finalized = await s.post("/report/finalize", { report_identifier: reportId }, parent.token);
    expect(finalized.status).toBe(200);
    expect(finalized.json.message).toBe("We will review your photos and videos and get back to you soon");
    const again = await s.post("/report/finalize", { report_identifier: reportId }, parent.token);
    expect(again.status).toBe(200);

    // The worker analyses it on its own.
    await s.waitFor(parent.token, reportId, ["analyzed"]);
    const queue = await s.post("/review/queue?page=1", {}, reviewer.token);
    expect(queue.status).toBe(200);
    const queued = queue.json.results.data.find((r: { report_identifier: string }) => r.report_identifier === reportId);
    expect(queued.baby_age).toMatch(/month/);
    const detail = await s.get(`/review/report/${reportId}`, reviewer.token);
    expect(detail.status).toBe(200);
    const measured = detail.json.results.attachments.filter((a: any) => a.measurement && a.measurement.ci !== null);
    expect(measured.length).toBeGreaterThanOrEqual(6);
    for (const a of measured.filter((x: any) => x.kind === "image")) {
      const shape = shapes[Number(/photo-(\d)/.exec(a.file_name)![1]) - 1]!;
      expect(Math.abs(a.measurement.ci - drawnCi(shape))).toBeLessThan(2.5);
      expect(a.measurement.automatic.accepted).toBe(true);
      expect(a.measurement.automatic.verdict).toBe("accept");
      expect(a.measurement.overlay.outline.length).toBeGreaterThan(10);
      expect(a.measurement.overlay.diagonals).not.toBeNull();
    }
    if (video) expect(detail.json.results.attachments.some((a: any) => a.kind === "frame")).toBe(true);
    expect(detail.json.results.summary.ci.count).toBeGreaterThanOrEqual(6);

    // The reviewer rejects one photo and moves the nose tip of another, which re-measures it.
    const photo1 = measured.find((a: any) => a.file_name === "photo-1.jpg");
    const photo2 = measured.find((a: any) => a.file_name === "photo-2.jpg");
    const decided = await s.post(`/review/report/${reportId}/decision`, { attachment_identifier: photo1.identifier, decision: "reject", reason: "Image is blurry" }, reviewer.token);
    expect(decided.status).toBe(200);
    const nose = photo2.measurement.overlay.noseTip;
    const corrected = await s.post(`/review/report/${reportId}/nose-tip`, { attachment_identifier: photo2.identifier, x: nose.x + 25, y: nose.y }, reviewer.token);
    expect(corrected.status).toBe(200);
    expect(corrected.json.results.measurement.nose_corrected).toBe(true);
    expect(corrected.json.results.measurement.ci).not.toBeCloseTo(photo2.measurement.ci, 3);
    const bad = await s.post(`/review/report/${reportId}/nose-tip`, { attachment_identifier: photo2.identifier, x: photo2.measurement.overlay.centre.x, y: photo2.measurement.overlay.centre.y }, reviewer.token);
    expect(bad.status).toBe(422);
    await s.post(`/review/report/${reportId}/note`, { note: "Good captures." }, reviewer.token);
    const published = await s.post(`/review/report/${reportId}/publish`, {}, reviewer.token);
    expect(published.status).toBe(200);
    expect(published.json.results.version).toBe(1);
    // Published, the report no longer waits for review: a state conflict (409), until it is reopened.
    const late = await s.post(`/review/report/${reportId}/note`, { note: "Too late." }, reviewer.token);
    expect([late.status, late.json.message]).toEqual([409, "This report is not waiting for a review."]);
    const summary = published.json.results.summary;
    expect(summary.ci.count).toBe(detail.json.results.summary.ci.count - 1);

    // Notified in the app and by e-mail.
    for (const who of [parent, physician]) {
      const n = await s.get("/user/notifications?page=1", who.token);
      expect(n.json.results.data.some((x: any) => x.kind === "report_published" && x.subject_identifier === reportId)).toBe(true);
    }
    // The e-mails were queued with the publish; the worker sends them.
    await s.worker!.idle();
    const mails = await s.outbox();
    expect(mails.some((m) => m.to.includes(parent.email) && /ready/.test(m.subject))).toBe(true);
    expect(mails.some((m) => m.to.includes(physician.email) && /ready/.test(m.subject))).toBe(true);

    // The physician's list: unread, then read after the download.
    const unread = await s.post("/report/results?page=1", { per_page: 10, type: "new" }, physician.token);
    expect(unread.json.results.data.map((r: any) => [r.identifier, r.read])).toEqual([[reportId, false]]);
    // The baby's parent by name, joined into the page query (repositories/report-lists.ts).
    expect(unread.json.results.data[0].parent_name).toBe("Alex Rivera");
    const dashboard = await s.post("/report/list?page=1", {}, physician.token);
    expect(dashboard.json.results.data.find((r: any) => r.identifier === reportId)?.parent_name).toBe("Alex Rivera");
    const download = await s.get(`/report/${reportId}/download`, physician.token);
    expect(download.status).toBe(200);
    expect(download.response.headers.get("content-type")).toBe("application/pdf");
    expect(download.response.headers.get("content-disposition")).toBe('attachment; filename="Result.pdf"');
    const pdf = new Uint8Array(await download.response.arrayBuffer());
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
    const read = await s.post("/report/results?page=1", { per_page: 10, type: "reviewed" }, physician.token);
    expect(read.json.results.data.map((r: any) => [r.identifier, r.read])).toEqual([[reportId, true]]);
    expect((await s.post("/report/results?page=1", { type: "new" }, physician.token)).json.results.data).toEqual([]);

    const parentPdf = await s.get(`/report/${reportId}/parent-download`, parent.token);
    expect(parentPdf.status).toBe(200);
    expect(parentPdf.response.headers.get("content-disposition")).toBe('attachment; filename="Result.pdf"');
    const parentBytes = new Uint8Array(await parentPdf.response.arrayBuffer());
    expect(Buffer.compare(Buffer.from(parentBytes), Buffer.from(pdf))).toBe(0);
    if (process.env.CROWN_KEEP_PDF) await import("node:fs/promises").then((fs) => fs.writeFile(process.env.CROWN_KEEP_PDF!, pdf));
    const text = pdfText(pdf);
    expect(text).toContain(summary.ci.median.toFixed(1));
    expect(text).toContain(summary.cvai.median.toFixed(1));
    expect(text).toContain("Mia Rivera");
    expect(text).toContain("Rita Levi");
    expect(text).toMatch(/not\s+a\s+diagnosis/);
    const parentResults = await s.post("/report/parent-results", { per_page: 10 }, parent.token);
    expect(parentResults.json.results.data[0]).toMatchObject({ identifier: reportId, read: true });

    // A republish makes a new, separate version; the first stays as it was.
    expect((await s.post(`/review/report/${reportId}/reopen`, {}, reviewer.token)).status).toBe(200);
    expect((await s.post(`/review/report/${reportId}/reopen`, {}, reviewer.token)).status).toBe(409);
    await s.post(`/review/report/${reportId}/decision`, { attachment_identifier: photo1.identifier, decision: "accept" }, reviewer.token);
    const republished = await s.post(`/review/report/${reportId}/publish`, {}, reviewer.token);
    expect(republished.json.results.version).toBe(2);
    const v2 = new Uint8Array(await (await s.get(`/report/${reportId}/parent-download`, parent.token)).response.arrayBuffer());
    expect(Buffer.compare(Buffer.from(v2), Buffer.from(pdf))).not.toBe(0);
    const versions = (await s.db.selectFrom("report_versions" as never).select(["version", "blob_key", "sha256"] as never).where("report_id" as never, "=", reportId as never).orderBy("version" as never).execute()) as Array<{ version: number; blob_key: string; sha256: string }>;
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    expect(versions[0]!.blob_key).not.toBe(versions[1]!.blob_key);
    await expect(s.db.updateTable("report_versions" as never).set({ sha256: "x" } as never).execute()).rejects.toThrow(/immutable/);
  }, 180_000);

  test("upload limits: format by the bytes, the spec's messages, no photo no finalize", async () => {
    const parent = await s.user("parent");
    const baby = await s.baby(parent.id, null);
    const id = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier;
    const noPhoto = await s.post("/report/finalize", { report_identifier: id }, parent.token);
    expect(noPhoto.status).toBe(422);
    const gif = await s.upload(parent.token, id, [{ name: "photo.jpg", bytes: new TextEncoder().encode("GIF89a not really a photo at all") }]);
    expect(gif.status).toBe(422);
    expect(gif.json.message).toBe("Files with only .jpg, .jpeg, .png, .mov or .mp4 formats are allowed for upload");
    const png = await headPhoto({ rx: 150, ry: 190 }, { format: "png" });
    const named = await s.upload(parent.token, id, [{ name: "looks-like.mov", bytes: png }]);
    expect(named.status).toBe(200);
    expect(named.json.results.attachments[0]).toMatchObject({ file_type: "image", extension: "png" });
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `p${i}.png`, bytes: new Uint8Array([...png, i, i + 1]) }));
    const tooMany = await s.upload(parent.token, id, many);
    expect(tooMany.status).toBe(422);
    expect(tooMany.json.message).toBe("You can select upto 20 files to upload");
    // A refused request keeps nothing (ADR 0028): only the photo uploaded before is there.
    const stored = (await s.get(`/report/${id}`, parent.token)).json.results.attachments;
    expect(stored.length).toBe(1);
    const badPrepare = await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "other" }, parent.token);
    expect(badPrepare.status).toBe(422);
    expect(Object.keys(badPrepare.json.errors)).toEqual(["analysis_type"]);
  });

  test("a file over 100 MB is refused with the spec's message and leaves nothing behind", async () => {
    const parent = await s.user("parent");
    const baby = await s.baby(parent.id, null);
    const id = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier;
    const head = await headPhoto({ rx: 150, ry: 190 });
    const big = new Uint8Array(100 * 1024 * 1024 + 10);
    big.set(head);
    const r = await s.upload(parent.token, id, [{ name: "huge.jpg", bytes: big }]);
    expect(r.status).toBe(413);
    expect(r.json.message).toBe("Please select files with size upto 100 MB");
    expect((await s.get(`/report/${id}`, parent.token)).json.results.attachments).toEqual([]);
  });

  test("images are served upright without location, with thumbnails; a video keeps its bytes", async () => {
    const parent = await s.user("parent");
    const baby = await s.baby(parent.id, null);
    const id = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier;
    const rotated = await headPhoto({ rx: 150, ry: 190, width: 600, height: 800 }, { orientation: 6, gps: true });
    expect((await sharp(rotated).metadata()).exif).toBeDefined();
    const up = await s.upload(parent.token, id, [{ name: "rotated.jpg", bytes: rotated }]);
    const a = up.json.results.attachments[0];
    const served = await s.get(`/report/attachment/${id}/${a.identifier}.${a.extension}`, parent.token);
    expect(served.status).toBe(200);
    const bytes = Buffer.from(await served.response.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([800, 600]);
    const thumb = await s.get(`/report/thumb/${id}/${a.identifier}.${a.extension}`, parent.token);
    expect(thumb.status).toBe(200);
    const tm = await sharp(Buffer.from(await thumb.response.arrayBuffer())).metadata();
    expect([tm.width, tm.height, tm.exif]).toEqual([320, 320, undefined]);
  });

  test("analysis failures go to review with reasons: an unreadable photo, no accepted photo", async () => {
    const parent = await s.user("parent");
    const baby = await s.baby(parent.id, null);
    const id = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier;
    // A JPEG header (with its frame size, so the upload takes it) and nothing decodable behind it.
    const broken = new Uint8Array(4096);
    broken.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
    broken.set([0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01], 20);
    await s.upload(parent.token, id, [{ name: "broken.jpg", bytes: broken }]);
    await s.post("/report/finalize", { report_identifier: id }, parent.token);
    await s.waitFor(parent.token, id, ["analyzed"]);
    const reviewer = await s.user("reviewer");
    const detail = await s.get(`/review/report/${id}`, reviewer.token);
    expect(detail.json.results.summary.problems).toEqual(expect.arrayContaining([expect.stringMatching(/broken\.jpg: the file could not be read/), "No photo passed the automatic quality check."]));
    const publish = await s.post(`/review/report/${id}/publish`, {}, reviewer.token);
    expect(publish.status).toBe(422);
    const recapture = await s.post(`/review/report/${id}/recapture`, { reasons: ["Image is blurry", "No nose visible"], note: "Please retake" }, reviewer.token);
    expect(recapture.status).toBe(200);
    const unknown = await s.post(`/review/report/${id}/recapture`, { reasons: ["Bad vibes"] }, reviewer.token);
    expect(unknown.status).toBe(422);
    const status = (await s.get(`/report/${id}`, parent.token)).json.results;
    expect(status).toMatchObject({ status: "recapture_requested", recapture_reasons: ["Image is blurry", "No nose visible"] });
    const n = await s.get("/user/notifications?page=1", parent.token);
    expect(n.json.results.data.some((x: any) => x.kind === "recapture_requested" && /Image is blurry/.test(x.text))).toBe(true);
    // And by e-mail, queued with the request and sent by the worker: once, with what to redo.
    await s.worker!.idle();
    const asked = (await s.outbox()).filter((m) => m.to.includes(parent.email) && /new photos/.test(m.subject));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.text).toContain("Image is blurry; No nose visible");
    expect(asked[0]!.text).toContain("Please retake");
    // The retake starts round 2 on the same report.
    const retake = await s.upload(parent.token, id, [{ name: "new.jpg", bytes: await headPhoto({ rx: 160, ry: 200 }) }]);
    expect(retake.status).toBe(200);
    expect((await s.post("/report/finalize", { report_identifier: id }, parent.token)).status).toBe(200);
    const after = await s.waitFor(parent.token, id, ["analyzed"]);
    expect(after.round).toBe(2);
    const reviewed = await s.get(`/review/report/${id}`, reviewer.token);
    expect(reviewed.json.results.summary.accepted).toBe(1);
    expect(reviewed.json.results.actions.map((a: any) => a.action)).toEqual(["recapture_requested"]);
  });

  test("a baby's second report charts both published reports, with the severity bands from the tables, the reviewer and the disclaimer", async () => {
    const physician = await s.user("physician", "Grace", "Hopper");
    const parent = await s.user("parent", "Alex", "Rivera");
    const reviewer = await s.user("reviewer", "Ravi", "Okafor");
    const baby = await s.baby(parent.id, physician.id, "Noor", "2026-06-01");
    const publishOne = async (shapes: Array<{ rx: number; ry: number }>) => {
      const id = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier as string;
      const files = await Promise.all(shapes.map(async (shape, i) => ({ name: `p${i}.jpg`, bytes: await headPhoto(shape) })));
      expect((await s.upload(parent.token, id, files)).status).toBe(200);
      expect((await s.post("/report/finalize", { report_identifier: id }, parent.token)).status).toBe(200);
      await s.waitFor(parent.token, id, ["analyzed"]);
      expect((await s.post(`/review/report/${id}/publish`, {}, reviewer.token)).status).toBe(200);
      // The figures saved with the version, unrounded, as the PDF prints them.
      const row = (await s.db.selectFrom("report_versions" as never).select(["summary"] as never).where("report_id" as never, "=", id as never).executeTakeFirstOrThrow()) as { summary: any };
      const summary = typeof row.summary === "string" ? JSON.parse(row.summary) : row.summary;
      return { id, ci: summary.ci.median as number, cvai: summary.cvai.median as number };
    };
    // A typical head first, then a wider one (mild brachycephaly), and a little asymmetry in neither.
    const first = await publishOne([{ rx: 170, ry: 210 }, { rx: 171, ry: 210 }]);
    // A month apart, as monthly photos are: the chart plots one point a day (two reports of one day are no trend, issue 46).
    const monthAgo = new Date(Date.now() - 31 * 86_400_000);
    await s.db.updateTable("reports" as never).set({ submitted_at: monthAgo, created_at: monthAgo } as never).where("id" as never, "=", first.id as never).execute();
    const second = await publishOne([{ rx: 192, ry: 206 }, { rx: 191, ry: 206 }]);
    expect(bandOf(first.ci, CI_BANDS).name).toBe("typical");
    expect(bandOf(second.ci, CI_BANDS).name).toBe("mild brachycephaly");

    const download = await s.get(`/report/${second.id}/parent-download`, parent.token);
    expect(download.status).toBe(200);
    const text = pdfText(new Uint8Array(await download.response.arrayBuffer()));
    const flat = text.replace(/\s+/g, " ");
    // The chart's points list both reports, each "date: value", dates as the portal writes them (MM/DD/YYYY).
    for (const r of [first, second]) {
      expect(text).toMatch(new RegExp(`\\d{2}/\\d{2}/\\d{4}: ${r.ci.toFixed(1).replace(".", "\\.")}\\b`));
      expect(text).toMatch(new RegExp(`\\d{2}/\\d{2}/\\d{4}: ${r.cvai.toFixed(1).replace(".", "\\.")}\\b`));
    }
    // No ISO date anywhere in the report; the charts have their axes' words.
    expect(text).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
    expect(flat).toContain("Capture date");
    // The title sits above the version line, not over it (word boxes from pdftotext -bbox).
    const boxes = execFileSync("pdftotext", ["-bbox", "-f", "1", "-l", "1", "-", "-"], { input: new Uint8Array(await (await s.get(`/report/${second.id}/parent-download`, parent.token)).response.arrayBuffer()) }).toString();
    const box = (word: string) => {
      const m = new RegExp(`yMin="([\\d.]+)" xMax="[\\d.]+" yMax="([\\d.]+)">${word}<`).exec(boxes);
      if (!m) throw new Error(`no ${word} on page 1`);
      return { top: Number(m[1]), bottom: Number(m[2]) };
    };
    expect(box("Head").bottom).toBeLessThanOrEqual(box("Version").top);
    // This report's bands, and every band of both tables with its range as the tables define it.
    expect(flat).toContain(bandOf(second.ci, CI_BANDS).label);
    expect(flat).toContain(bandOf(second.cvai, CVAI_BANDS).label);
    for (const b of [...CI_BANDS, ...CVAI_BANDS]) expect(flat).toContain(`${b.label} ${bandRange(b)}`);
    expect(flat).toContain("CI ranges: below 76 long head, 76-90 typical, 90-93 mild brachycephaly");
    expect(flat).toContain(SEVERITY_CITATION.replace(/\s+/g, " "));
    expect(flat).toContain("Reviewed by Ravi Okafor");
    expect(flat).toContain(REPORT_DISCLAIMER);
    expect(flat).toContain("Noor Rivera");
  });
});
