import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { databaseKinds } from "./harness.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

/** The PDF's text, by poppler's pdftotext. */
const pdfText = (bytes: Uint8Array): string => execFileSync("pdftotext", ["-layout", "-", "-"], { input: bytes }).toString().replace(/\s+/g, " ");

/** Issue 21: a Spanish-reading parent gets the report and its e-mails in Spanish; an English physician the same version in English. */
describe.each(await databaseKinds())("a report read in Spanish on %s", (kind) => {
  let s: ReportServer;
  beforeAll(async () => {
    s = await startReportServer(kind);
  });
  afterAll(async () => {
    await s?.close();
  });

  test("the published PDF and the e-mails follow each reader's language", async () => {
    const physician = await s.user("physician", "Grace", "Hopper");
    const parent = await s.user("parent", "Lucía", "Pérez");
    const reviewer = await s.user("reviewer", "Ravi", "Okafor");
    expect((await s.post("/user/language", { language: "es" }, parent.token)).status).toBe(200);
    const baby = await s.baby(parent.id, physician.id, "Sofía", "2026-06-01");
    const id = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier as string;
    const files = await Promise.all([{ rx: 192, ry: 206 }, { rx: 191, ry: 206 }].map(async (shape, i) => ({ name: `p${i}.jpg`, bytes: await headPhoto(shape) })));
    expect((await s.upload(parent.token, id, files)).status).toBe(200);
    expect((await s.post("/report/finalize", { report_identifier: id }, parent.token)).status).toBe(200);
    await s.waitFor(parent.token, id, ["analyzed"]);
    expect((await s.post(`/review/report/${id}/publish`, {}, reviewer.token)).status).toBe(200);

    const spanish = await s.get(`/report/${id}/parent-download`, parent.token);
    expect(spanish.status).toBe(200);
    const text = pdfText(new Uint8Array(await spanish.response.arrayBuffer()));
    expect(text).toContain("Informe de evaluación de la forma de la cabeza");
    expect(text).toContain("Índice cefálico (IC)");
    expect(text).toContain("Fecha de nacimiento");
    // Dates written out in Spanish (no day/month order to misread), numbers by Intl for es-US.
    expect(text).toContain("1 de junio de 2026");
    expect(text).toMatch(/Braquicefalia (leve|moderada|grave)|Típico/);
    expect(text).toContain("No es un diagnóstico ni reemplaza el examen de un médico");
    expect(text).not.toContain("Head shape screening report");

    const english = await s.get(`/report/${id}/download`, physician.token);
    expect(english.status).toBe(200);
    const englishText = pdfText(new Uint8Array(await english.response.arrayBuffer()));
    expect(englishText).toContain("Head shape screening report");
    expect(englishText).toContain("06/01/2026");
    expect(englishText).not.toContain("Informe");

    await s.worker!.idle();
    const mails = await s.outbox();
    const toParent = mails.filter((m) => m.to.includes(parent.email));
    expect(toParent.map((m) => m.subject)).toContain("El informe de la forma de la cabeza de Sofía Rivera está listo");
    expect(toParent.find((m) => m.subject.startsWith("El informe"))!.text).toContain("Es una herramienta de detección, no un diagnóstico");
    expect(mails.filter((m) => m.to.includes(physician.email)).map((m) => m.subject)).toContain("The head-shape report of Sofía Rivera is ready");
  });
});
