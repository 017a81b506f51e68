import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readConfig } from "../../apps/server/src/config.ts";
import { composeServices } from "../../apps/server/src/compose.ts";
import { DEFAULT_MODEL_PATH } from "../../apps/server/src/paths.ts";
import { startReportWorker } from "../../apps/server/src/reports.ts";
import { colourModel, COLOUR_MODEL, headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

/**
 * Issue 41, item 5 (ADR 0159): a candidate installed as the shadow measures every photo of a report
 * analysed after it, apart from the report (nothing of it reaches the report, its review, its
 * Observations or its PDF); only admins install, promote and roll back; a promotion changes the model
 * that measures the next report in a worker that never saw the call (the roles are in the database),
 * a rollback changes it back, and every report keeps naming the model that measured it.
 */

const MODEL = process.env.CROWN_MODEL ?? DEFAULT_MODEL_PATH;
const CANDIDATE_VERSION = "0.5.0-candidate-test";

describe.skipIf(!existsSync(MODEL))("the shadow model, installed, compared, promoted and rolled back", () => {
  let s: ReportServer;
  let worker: ReturnType<typeof startReportWorker>;
  let otherServices: Awaited<ReturnType<typeof composeServices>>;
  const candidate = () => {
    const card = { ...JSON.parse(readFileSync(path.join(path.dirname(MODEL), "model.json"), "utf8")), version: CANDIDATE_VERSION };
    return { bytes: readFileSync(MODEL), card };
  };
  const install = (token: string, parts: { bytes?: Uint8Array; card?: unknown } = candidate()) => {
    const form = new FormData();
    if (parts.bytes) form.append("model", new Blob([parts.bytes as Uint8Array<ArrayBuffer>], { type: "application/octet-stream" }), "head-contour.onnx");
    if (parts.card !== undefined) form.append("card", new Blob([JSON.stringify(parts.card)], { type: "application/json" }), "model.json");
    return s.call("POST", "/admin/model/shadow", { token, form });
  };

  beforeAll(async () => {
    // The API server runs no worker: the analysis and shadow jobs run in another composition, with
    // its own memory, as a separate worker process would (it learns the roles from the database only).
    s = await startReportServer("postgres", { worker: false });
    otherServices = await composeServices(readConfig({ PORT: "8081", CROWN_DATA_DIR: s.dataDir, PUBLIC_URL: "http://crown.test" }), { db: s.db, kind: "postgres", close: async () => undefined }, {
      model: colourModel(),
      analyze: { inputSize: 160 },
      problem: null,
    });
    worker = startReportWorker(s.db, otherServices.run, undefined, { pollMs: 100 });
  });
  afterAll(async () => {
    await worker?.stop();
    await otherServices?.close();
    await s?.close();
  });

  const waitUntil = async <T>(what: string, f: () => Promise<T | null>, timeoutMs = 120_000): Promise<T> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const value = await f();
      if (value !== null) return value;
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  test("install (admins only, checked), shadow answers for every photo apart from the report, promote and roll back across workers", async () => {
    const admin = await s.user("admin", "Ada", "Admin");
    const reviewer = await s.user("reviewer", "Rae", "Reviewer");
    const parent = await s.user("parent", "Pia", "Parent");
    const physician = await s.user("physician", "Grace", "Hopper");
    const nurse = await s.user("physician_staff", "Nia", "Nurse");
    await s.delegate(physician.id, nurse.id);

    // Nobody but an admin reaches the switches (the authorization matrix lists them too).
    for (const who of [parent, physician, nurse, reviewer]) {
      expect((await install(who.token)).status).toBe(403);
      expect((await s.post("/admin/model/promote", {}, who.token)).status).toBe(403);
      expect((await s.post("/admin/model/rollback", {}, who.token)).status).toBe(403);
    }
    // A candidate is checked before it is kept: no file, a card that is not JSON-able reasons, bytes that are no model.
    expect((await install(admin.token, { card: candidate().card })).status).toBe(422);
    const wrongReasons = await install(admin.token, { bytes: candidate().bytes, card: { ...candidate().card, reasons: ["Image is blurry"] } });
    expect([wrongReasons.status, wrongReasons.json.errors?.model?.[0]]).toEqual([422, expect.stringContaining("reasons")]);
    const notAModel = await install(admin.token, { bytes: new TextEncoder().encode("not an onnx file"), card: candidate().card });
    expect([notAModel.status, notAModel.json.errors?.model?.[0]]).toEqual([422, expect.stringContaining("The candidate was refused")]);
    expect((await s.post("/admin/model/promote", {}, admin.token)).json.errors?.model).toEqual(["No candidate model is installed as the shadow model."]);

    const installed = await install(admin.token);
    expect(installed.status).toBe(200);
    const shadow = installed.json.results;
    expect(shadow).toMatchObject({ role: "shadow", version: CANDIDATE_VERSION, release_model: false, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // Stored by checksum in the object store, recorded and audited.
    expect((await sql<{ blob_key: string }>`select blob_key from installed_models where id = ${shadow.identifier}`.execute(s.db)).rows[0]!.blob_key).toBe(`models/${shadow.sha256}.onnx`);
    // The same bytes again are refused (already the shadow).
    expect((await install(admin.token)).status).toBe(422);

    // A report analysed after the installation: every photo has a shadow answer, and the report has nothing of it.
    const baby = await s.baby(parent.id, physician.id, "Noa", "2026-06-01");
    const report = async (shapes: Array<{ rx: number; ry: number }>) => {
      const id = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier as string;
      const files = await Promise.all(shapes.map(async (shape, n) => ({ name: `p${n}.jpg`, bytes: await headPhoto(shape) })));
      expect((await s.upload(parent.token, id, files)).status).toBe(200);
      expect((await s.post("/report/finalize", { report_identifier: id }, parent.token)).status).toBe(200);
      await s.waitFor(parent.token, id, ["analyzed"], 120_000);
      return id;
    };
    const first = await report([{ rx: 160, ry: 205 }, { rx: 165, ry: 210 }, { rx: 170, ry: 212 }]);
    const photos = (await sql<{ id: string }>`select id from attachments where report_id = ${first}`.execute(s.db)).rows.map((r) => r.id).sort();
    expect(photos).toHaveLength(3);
    const answers = await waitUntil("the shadow's answers", async () => {
      const rows = (await sql<{ attachment_id: string; model_id: string; ms: number; verdict: string; outline: unknown }>`select attachment_id, model_id, ms, verdict, outline from shadow_measurements where report_id = ${first}`.execute(s.db)).rows;
      return rows.length === photos.length ? rows : null;
    });
    expect(answers.map((a) => a.attachment_id).sort()).toEqual(photos);
    for (const a of answers) {
      expect(a.model_id).toBe(shadow.identifier);
      expect(a.ms).toBeGreaterThan(0);
      expect(["accept", "retake", "refer"]).toContain(a.verdict);
    }
    // The shipped model's measurements are the report's: each names the colour model, none the candidate.
    const measured = (await sql<{ model_version: string }>`select model_version from measurements where report_id = ${first}`.execute(s.db)).rows;
    expect(measured.map((m) => m.model_version)).toEqual([COLOUR_MODEL.version, COLOUR_MODEL.version, COLOUR_MODEL.version]);
    const leaks = (text: string) => [CANDIDATE_VERSION, shadow.identifier, shadow.sha256].filter((x) => text.includes(x));
    expect(leaks(JSON.stringify((await s.get(`/report/${first}`, parent.token)).json))).toEqual([]);
    expect(leaks(JSON.stringify((await s.get(`/review/report/${first}`, reviewer.token)).json))).toEqual([]);
    expect((await s.post(`/review/report/${first}/publish`, {}, reviewer.token)).status).toBe(200);
    const observation = async (id: string) => {
      const r = await s.app.request(`/fhir/R4/Observation/${id}-ci`, { headers: { authorization: `Bearer ${parent.token}`, "x-forwarded-for": "10.30.0.1" } });
      return (await r.json()) as { device?: { display: string } };
    };
    expect((await observation(first)).device).toEqual({ display: `${COLOUR_MODEL.name} ${COLOUR_MODEL.version}` });
    const pdf = await s.get(`/report/${first}/download`, physician.token);
    expect(pdf.status).toBe(200);
    const pdfText = execFileSync("pdftotext", ["-layout", "-", "-"], { input: new Uint8Array(await pdf.response.arrayBuffer()) }).toString();
    expect(leaks(pdfText)).toEqual([]);

    // The Model page compares both on the photos the shadow measured; the list names every role.
    const page = (await s.get("/admin/model", admin.token)).json.results;
    expect(page.shadow).toMatchObject({ identifier: shadow.identifier, version: CANDIDATE_VERSION, measured: 3, mean_ms: expect.any(Number) });
    expect(page.shadow.total).toMatchObject({ shipped: expect.objectContaining({ photos: expect.any(Number) }), shadow: expect.objectContaining({ photos: expect.any(Number) }) });
    expect(page.installed.map((m: { role: string }) => m.role)).toEqual(["shadow"]);

    // Promotion: the next report is measured by the candidate, in the other worker, which never saw the call.
    const promoted = await s.post("/admin/model/promote", {}, admin.token);
    expect(promoted.status).toBe(200);
    expect(promoted.json.results).toMatchObject({ shipped: { version: CANDIDATE_VERSION }, previous: { name: COLOUR_MODEL.name, version: COLOUR_MODEL.version, release_model: true } });
    const second = await report([{ rx: 160, ry: 205 }]);
    expect((await sql<{ model_name: string; model_version: string }>`select model_name, model_version from measurements where report_id = ${second}`.execute(s.db)).rows).toEqual([
      { model_name: "Crown head-contour model", model_version: CANDIDATE_VERSION },
    ]);
    // The report measured before keeps its model's name.
    expect((await observation(first)).device).toEqual({ display: `${COLOUR_MODEL.name} ${COLOUR_MODEL.version}` });
    // No shadow now: the second report has no shadow answer.
    await worker.idle();
    expect((await sql<{ n: number }>`select count(*)::int as n from shadow_measurements where report_id = ${second}`.execute(s.db)).rows[0]!.n).toBe(0);

    // Rollback: the release's model measures again; the promoted one is kept, retired.
    const rolled = await s.post("/admin/model/rollback", {}, admin.token);
    expect(rolled.status).toBe(200);
    expect(rolled.json.results).toMatchObject({ shipped: { version: COLOUR_MODEL.version }, retired: { version: CANDIDATE_VERSION } });
    const third = await report([{ rx: 160, ry: 205 }]);
    expect((await sql<{ model_version: string }>`select model_version from measurements where report_id = ${third}`.execute(s.db)).rows).toEqual([{ model_version: COLOUR_MODEL.version }]);
    expect((await sql<{ model_version: string }>`select model_version from measurements where report_id = ${second}`.execute(s.db)).rows).toEqual([{ model_version: CANDIDATE_VERSION }]);
    expect((await s.post("/admin/model/rollback", {}, admin.token)).json.errors?.model).toEqual(["There is no earlier shipped model to roll back to."]);

    const audits = await sql<{ action: string; actor_id: string | null }>`select action, actor_id from audit_events where action like 'model.%' order by at, id`.execute(s.db);
    expect(audits.rows.map((r) => r.action)).toEqual(["model.shadow_installed", "model.shadow_measured", "model.promoted", "model.rolled_back"]);
    expect(audits.rows.filter((r) => r.action !== "model.shadow_measured").every((r) => r.actor_id === admin.id)).toBe(true);
  }, 600_000);
});
