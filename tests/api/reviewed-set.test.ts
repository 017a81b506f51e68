import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { exportReviewedSet, printReviewedSetStats } from "../../apps/server/src/commands/dataset.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

/**
 * Issue 41, items 2 and 3: consent per child decides which reviewed photos reach the reviewed set;
 * a withdrawal takes the child out of every set no shipped model has used (files included) and of
 * every later one; a set holds no name, e-mail, date of birth, identifier or EXIF.
 */

describe("consent and the reviewed set, through the API and `crown dataset:export`", () => {
  let s: ReportServer;
  let work: string;
  beforeAll(async () => {
    s = await startReportServer("postgres");
    work = await mkdtemp(path.join(os.tmpdir(), "crown-sets-"));
  });
  afterAll(async () => {
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const exportTo = async (name: string) => {
    const dir = path.join(work, name);
    const lines: string[] = [];
    expect(await exportReviewedSet(s.services, dir, (l) => void lines.push(l))).toBe(0);
    const truth = JSON.parse(await readFile(path.join(dir, "truth.json"), "utf8"));
    const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8"));
    return { dir, truth, manifest, lines: lines.join("") };
  };

  test("off until chosen: no export holds the photo; granted: it does, without identifiers or EXIF; withdrawn: gone from unshipped sets and the next export", async () => {
    const physician = await s.user("physician", "Grace", "Hopper");
    const parent = await s.user("parent", "Alexandra", "Quimby");
    const reviewer = await s.user("reviewer", "Rae", "Reviewer");
    const baby = await s.baby(parent.id, physician.id, "Zebulon", "2026-07-15");
    const id = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier as string;
    // The photo carries EXIF (camera and GPS): none of it may reach a set.
    const bytes = await headPhoto({ rx: 170, ry: 210 }, { gps: true });
    expect((await sharp(bytes).metadata()).exif).toBeDefined();
    const up = await s.upload(parent.token, id, [{ name: "zebulon-quimby.jpg", bytes }]);
    const attachment = up.json.results.attachments[0].identifier as string;
    await s.post("/report/finalize", { report_identifier: id }, parent.token);
    await s.waitFor(parent.token, id, ["analyzed"]);
    // The reviewer corrects the outline, accepts, publishes.
    const detail = (await s.get(`/review/report/${id}`, reviewer.token)).json.results;
    const overlay = detail.attachments[0].measurement.overlay;
    const outline = overlay.outline.map((p: { x: number; y: number }) => ({ x: p.x + (p.x > overlay.centre.x ? 4 : 0), y: p.y }));
    expect((await s.post(`/review/report/${id}/outline`, { attachment_identifier: attachment, outline }, reviewer.token)).status).toBe(200);
    expect((await s.post(`/review/report/${id}/decision`, { attachment_identifier: attachment, decision: "accept" }, reviewer.token)).status).toBe(200);
    expect((await s.post(`/review/report/${id}/publish`, {}, reviewer.token)).status).toBe(200);

    // Off until chosen, and asked once now that a report is published.
    const asked = (await s.get("/user/research-consent", parent.token)).json.results;
    expect(asked.children).toEqual([expect.objectContaining({ baby_identifier: baby.id, choice: null, consented: false, ask: true })]);
    expect(asked.text.paragraphs.join(" ")).toMatch(/EXIF/);
    const none = await exportTo("none");
    expect(none.truth.items).toEqual([]);
    expect(none.manifest.counts).toMatchObject({ examples: 0, reviewed_photos: 1, left_out: 1 });

    // "Not now": still off, never asked again.
    expect((await s.post("/user/research-consent/asked", { baby_identifier: baby.id }, parent.token)).status).toBe(200);
    expect((await s.get("/user/research-consent", parent.token)).json.results.children[0]).toMatchObject({ choice: null, ask: false });

    const granted = await s.post("/user/research-consent", { baby_identifier: baby.id, choice: "granted" }, parent.token);
    expect(granted.status).toBe(200);
    expect(granted.json.message).toContain("Zebulon");
    const used = await exportTo("used");
    const open = await exportTo("open");
    for (const set of [used, open]) {
      expect(set.truth.items).toHaveLength(1);
      const item = set.truth.items[0];
      expect(item).toMatchObject({ decision: "accept", confirmed: "explicit", corrected: { outline: true, nose: false }, reasons: [] });
      expect(item.ci).not.toBeCloseTo(item.model.ci, 3);
      expect(set.manifest.consent).toEqual([{ image: item.image, granted_at: expect.any(String), text_version: expect.any(String) }]);
      // Nothing that names the child or the family, nor Crown's own identifiers.
      const text = JSON.stringify([set.truth, set.manifest]);
      for (const secret of ["Zebulon", "Quimby", "Rivera", "2026-07-15", parent.email, baby.id, id, attachment, parent.id, reviewer.id, "zebulon-quimby"]) expect(text).not.toContain(secret);
      const image = await readFile(path.join(set.dir, item.image));
      const meta = await sharp(image).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect([meta.width, meta.height]).toEqual([item.width, item.height]);
    }
    // The Model page: the shipped model against the reviewer on the consented photo, the correction the worst disagreement.
    const admin = await s.user("admin", "Ada", "Admin");
    const page = (await s.get("/admin/model", admin.token)).json.results;
    expect(page.total).toMatchObject({ photos: 1, reviewer: { accepted: 1, rejected: 0 }, figures: { n: 1 } });
    expect(page.total.figures.ci_mae).toBeCloseTo(Math.abs(used.truth.items[0].ci - used.truth.items[0].model.ci), 6);
    expect(page.recent.photos).toBe(1);
    expect(page.worst).toEqual([expect.objectContaining({ report_identifier: id, attachment_identifier: attachment })]);
    for (const who of [parent, physician]) expect((await s.get("/admin/model", who.token)).status).toBe(403);

    // One set has trained or validated a shipped model: it keeps what it had.
    await sql`update reviewed_sets set used_by_model = 'Crown head contour 9.9.9' where directory = ${used.dir}`.execute(s.db);

    const withdrawn = await s.post("/user/research-consent", { baby_identifier: baby.id, choice: "withdrawn" }, parent.token);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.json.message).toBe(
      "Consent withdrawn: Zebulon's photos were removed from every set not yet used for a shipped model (sets changed: 1), and no new set will include them. A model that has already shipped keeps what it learnt.",
    );
    expect(withdrawn.json.results.removed_from_sets).toBe(1);
    const openNow = JSON.parse(await readFile(path.join(open.dir, "truth.json"), "utf8"));
    expect(openNow.items).toEqual([]);
    await expect(stat(path.join(open.dir, open.truth.items[0].image))).rejects.toThrow();
    expect(JSON.parse(await readFile(path.join(open.dir, "manifest.json"), "utf8"))).toMatchObject({ withdrawn: 1, consent: [], counts: { examples: 0 } });
    expect(JSON.parse(await readFile(path.join(used.dir, "truth.json"), "utf8")).items).toHaveLength(1);
    expect((await exportTo("after")).truth.items).toEqual([]);

    const lines: string[] = [];
    await printReviewedSetStats(s.services, (l) => void lines.push(l));
    expect(lines.join("")).toContain("Consent: granted 0, not chosen 0, declined 0, withdrawn 1");
    // The audit log has each choice.
    const audits = await sql<{ action: string }>`select action from audit_events where subject_id = ${baby.id} and action like 'research_consent.%' order by at, id`.execute(s.db);
    expect(audits.rows.map((r) => r.action)).toEqual(["research_consent.granted", "research_consent.withdrawn"]);
  }, 240_000);

  test("another parent's child is no child; withdrawing without a grant is refused; a physician cannot choose", async () => {
    const parent = await s.user("parent", "Pat", "One");
    const other = await s.user("parent", "Oli", "Two");
    const physician = await s.user("physician", "Phil", "Three");
    const baby = await s.baby(parent.id, physician.id, "Kit");
    expect((await s.post("/user/research-consent", { baby_identifier: baby.id, choice: "granted" }, other.token)).status).toBe(404);
    expect((await s.post("/user/research-consent", { baby_identifier: baby.id, choice: "withdrawn" }, parent.token)).status).toBe(422);
    expect((await s.post("/user/research-consent", { baby_identifier: baby.id, choice: "maybe" }, parent.token)).status).toBe(422);
    expect((await s.post("/user/research-consent", { baby_identifier: baby.id, choice: "granted" }, physician.token)).status).toBe(403);
    expect((await s.get("/user/research-consent", other.token)).json.results.children).toEqual([]);
  });
});
