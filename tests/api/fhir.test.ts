import { createHash } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CODES, MEASURES, SYSTEMS } from "@crown/core/fhir/index";
import { fhirIssues } from "./fhir-validator.ts";
import { COLOUR_MODEL, headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

/**
 * Issue 20: the FHIR R4 API. Every resource and bundle it serves is checked against the R4
 * definitions (Medplum's validator), for a baby with three published months, one of them
 * republished (amended); who may read what, the errors, paging and the read audit.
 */
describe("FHIR R4 API of published reports (PostgreSQL)", () => {
  let s: ReportServer;
  const who: Record<string, { id: string; token: string }> = {};
  let babyId: string;
  const reports: string[] = [];
  /** Capture dates, one month apart (the reports are moved to them after publishing). */
  const MONTHS = ["2026-08-10T15:00:00.000Z", "2026-09-10T15:00:00.000Z", "2026-10-10T15:00:00.000Z"];

  const fhir = async (path: string, token?: string | null, init: RequestInit = {}) => {
    const headers: Record<string, string> = { "x-forwarded-for": "10.20.0.1", ...(init.headers as Record<string, string>) };
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await s.app.request(path.startsWith("http") ? path : `/fhir/R4${path}`, { ...init, headers });
    const text = await response.text();
    return { status: response.status, type: response.headers.get("content-type") ?? "", json: text ? JSON.parse(text) : null, response };
  };
  /** 200, FHIR JSON, and valid R4. */
  const valid = async (path: string, token?: string | null) => {
    const r = await fhir(path, token);
    expect(r.status, `${path}: ${JSON.stringify(r.json).slice(0, 300)}`).toBe(200);
    expect(r.type).toContain("application/fhir+json");
    expect(fhirIssues(r.json), path).toEqual([]);
    return r.json;
  };
  const publish = async (id: string) => {
    const published = await s.post(`/review/report/${id}/publish`, {}, who.reviewer!.token);
    if (published.status !== 200) throw new Error(`publish failed: ${JSON.stringify(published.json)}`);
  };

  beforeAll(async () => {
    s = await startReportServer("postgres");
    who.parent = await s.user("parent", "Ann", "Rivera");
    who.physician = await s.user("physician", "Ada", "Okafor");
    who.staff = await s.user("physician_staff", "Sue", "Nurse");
    who.reviewer = await s.user("reviewer", "Rita", "Reviewer");
    who.otherParent = await s.user("parent", "Ben", "Beta");
    who.otherPhysician = await s.user("physician", "Bo", "Beta");
    await s.delegate(who.physician.id, who.staff.id);
    await sql`update users set npi = '1234567893' where id = ${who.physician.id}`.execute(s.db);
    babyId = (await s.baby(who.parent.id, who.physician.id, "Noa", "2026-06-01")).id;
    for (let month = 0; month < 3; month++) {
      const id: string = (await s.post("/report/prepare", { baby_identifier: babyId, analysis_type: "head_ci_cvai_analysis" }, who.parent.token)).json.results.report_identifier;
      const photos = await Promise.all([0, 1, 2].map(async (n) => ({ name: `m${month}p${n}.jpg`, bytes: await headPhoto({ rx: 150 + month * 8 + n, ry: 200 }) })));
      expect((await s.upload(who.parent.token, id, photos)).status).toBe(200);
      await s.post("/report/finalize", { report_identifier: id }, who.parent.token);
      await s.waitFor(who.parent.token, id, ["analyzed"]);
      if (month === 2) {
        await s.post(`/review/report/${id}/note`, { note: "Mild asymmetry; recheck in one month." }, who.reviewer.token);
        // The third month as if analysed before models were recorded (migration 2026-11-24T1520), published after.
        await sql`update measurements set model_name = null, model_version = null where report_id = ${id}`.execute(s.db);
        await sql`update reports set analysis = analysis::jsonb - 'models' where id = ${id}`.execute(s.db);
      }
      await publish(id);
      await sql`update reports set submitted_at = ${new Date(MONTHS[month]!)} where id = ${id}`.execute(s.db);
      reports.push(id);
    }
    // The first month is republished: its DiagnosticReport and Observations are amended.
    expect((await s.post(`/review/report/${reports[0]}/reopen`, {}, who.reviewer.token)).status).toBe(200);
    await publish(reports[0]!);
  }, 240_000);
  afterAll(async () => {
    await s?.close();
  });

  test("metadata: a valid CapabilityStatement of exactly what is served, without a token; the CodeSystem too", async () => {
    // The validator is real: a missing element, an unknown one, a broken invariant (bdl-9), a code outside its required value set each fail it.
    expect(fhirIssues({ resourceType: "DiagnosticReport", status: "published", code: { text: "x" } })).not.toEqual([]);
    expect(fhirIssues({ resourceType: "Observation", status: "final" })).not.toEqual([]);
    expect(fhirIssues({ resourceType: "Patient", colour: "red" })).not.toEqual([]);
    expect(fhirIssues({ resourceType: "Bundle", type: "document", timestamp: "2026-01-01T00:00:00Z", entry: [] })).not.toEqual([]);
    const cap = await valid("/metadata");
    expect(cap.fhirVersion).toBe("4.0.1");
    expect(cap.rest[0].resource.map((r: { type: string }) => r.type)).toEqual(["Patient", "Practitioner", "DiagnosticReport", "Observation", "CodeSystem"]);
    const cs = await valid("/CodeSystem/head-shape");
    expect(cs.url).toBe(SYSTEMS.crown);
    expect(cs.concept.map((c: { code: string }) => c.code)).toEqual(expect.arrayContaining(MEASURES.map((m) => m.code.code)));
    expect((await fhir("/CodeSystem/other")).status).toBe(404);
  });

  test("Patient: the baby for its parent, physician and staff; 404 for anyone else's; 401 without a token; 403 for a reviewer", async () => {
    for (const name of ["parent", "physician", "staff"]) {
      const p = await valid(`/Patient/${babyId}`, who[name]!.token);
      expect(p).toMatchObject({ id: babyId, birthDate: "2026-06-01", name: [{ family: "Rivera", given: ["Noa"] }], identifier: [{ system: SYSTEMS.babyId, value: babyId }] });
      expect(p.generalPractitioner[0].reference).toBe(`Practitioner/${who.physician!.id}`);
    }
    for (const name of ["otherParent", "otherPhysician"]) {
      const r = await fhir(`/Patient/${babyId}`, who[name]!.token);
      expect(r.status).toBe(404);
      expect(r.json.resourceType).toBe("OperationOutcome");
      expect(fhirIssues(r.json)).toEqual([]);
      // The same answer as a baby that does not exist.
      expect(r.json).toEqual((await fhir("/Patient/01NOSUCHBABY00000000000000", who[name]!.token)).json);
    }
    const anonymous = await fhir(`/Patient/${babyId}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.issue[0].code).toBe("login");
    expect((await fhir(`/Patient/${babyId}`, who.reviewer!.token)).status).toBe(403);
  });

  test("Practitioner: the physician with the NPI, the reviewer; 404 for a parent's id", async () => {
    const doc = await valid(`/Practitioner/${who.physician!.id}`, who.parent!.token);
    expect(doc.identifier).toContainEqual(expect.objectContaining({ system: "http://hl7.org/fhir/sid/us-npi", value: "1234567893" }));
    expect(doc.name[0]).toMatchObject({ family: "Okafor", given: ["Ada"] });
    await valid(`/Practitioner/${who.reviewer!.id}`, who.staff!.token);
    expect((await fhir(`/Practitioner/${who.parent!.id}`, who.physician!.token)).status).toBe(404);
  });

  test("DiagnosticReport: final, amended when republished; results, conclusion, and the PDF's url, size and SHA-1", async () => {
    for (const [i, id] of reports.entries()) {
      const dr = await valid(`/DiagnosticReport/${id}`, who.physician!.token);
      expect(dr.status).toBe(i === 0 ? "amended" : "final");
      expect(dr.meta.versionId).toBe(i === 0 ? "2" : "1");
      expect(dr.code.coding[0]).toMatchObject({ system: SYSTEMS.crown, code: CODES.screening.code });
      expect(dr.category[0].coding[0].code).toBe("IMG");
      expect(dr.subject.reference).toBe(`Patient/${babyId}`);
      expect(dr.effectiveDateTime).toBe(MONTHS[i]);
      expect(dr.performer[0].reference).toBe(`Practitioner/${who.reviewer!.id}`);
      expect(dr.resultsInterpreter).toEqual(dr.performer);
      expect(dr.result.map((r: { reference: string }) => r.reference)).toEqual(["ci", "cvai", "cva"].map((m) => `Observation/${id}-${m}`));
      if (i === 2) expect(dr.conclusion).toBe("Mild asymmetry; recheck in one month.");
      const [form] = dr.presentedForm;
      expect(form.contentType).toBe("application/pdf");
      expect(form.url).toBe(`http://crown.test/api/v1/en/report/${id}/download`);
      const pdf = await s.app.request(new URL(form.url).pathname, { headers: { authorization: `Bearer ${who.physician!.token}`, "x-forwarded-for": "10.20.0.2" } });
      const bytes = Buffer.from(await pdf.arrayBuffer());
      expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
      expect(form.size).toBe(bytes.length);
      expect(form.hash).toBe(createHash("sha1").update(bytes).digest("base64"));
      for (const ref of dr.result) {
        const o = await valid(`/${ref.reference}`, who.staff!.token);
        expect(o.status).toBe(dr.status);
      }
    }
    // A parent's form points at the parent's download of the same file.
    const mine = await valid(`/DiagnosticReport/${reports[1]}`, who.parent!.token);
    expect(mine.presentedForm[0].url).toBe(`http://crown.test/api/v1/en/report/${reports[1]}/parent-download`);
    for (const name of ["otherParent", "otherPhysician"]) expect((await fhir(`/DiagnosticReport/${reports[1]}`, who[name]!.token)).status).toBe(404);
  });

  test("Observation: CI and CVAI without units (UCUM 1), CVA in mm, bands as reference ranges and interpretation, method and device", async () => {
    const ci = await valid(`/Observation/${reports[1]}-ci`, who.parent!.token);
    expect(ci.valueQuantity).toMatchObject({ unit: "1", system: "http://unitsofmeasure.org", code: "1" });
    expect(ci.referenceRange.length).toBe(5);
    expect(ci.interpretation[0].coding[0].system).toBe(SYSTEMS.interpretation);
    expect(ci.method.text).toBe("Photo, automatic measurement reviewed by an expert");
    // The model that measured these photos (recorded then), not the model installed on this server.
    expect(ci.device).toEqual({ display: `${COLOUR_MODEL.name} ${COLOUR_MODEL.version}` });
    const recorded = await sql<{ model_name: string; model_version: string }>`select distinct model_name, model_version from measurements where report_id = ${reports[1]}`.execute(s.db);
    expect(recorded.rows).toEqual([{ model_name: COLOUR_MODEL.name, model_version: COLOUR_MODEL.version }]);
    const cvai = await valid(`/Observation/${reports[1]}-cvai`, who.parent!.token);
    expect(cvai.interpretation[0].text).toMatch(/^Level [1-5]/);
    const cva = await valid(`/Observation/${reports[1]}-cva`, who.parent!.token);
    expect(cva.valueQuantity?.code ?? cva.dataAbsentReason.coding[0].code).toMatch(/^(mm|not-performed)$/);
    for (const bad of [`${reports[1]}-xyz`, `${reports[1]}`, "-ci", `01NOSUCHREPORT000000000000-ci`]) expect((await fhir(`/Observation/${bad}`, who.parent!.token)).status).toBe(404);
    expect((await fhir(`/Observation/${reports[1]}-ci`, who.otherPhysician!.token)).status).toBe(404);
  });

  test("Observation of a report measured before models were recorded: no device, still valid R4", async () => {
    for (const measure of ["ci", "cvai", "cva"]) expect(await valid(`/Observation/${reports[2]}-${measure}`, who.parent!.token)).not.toHaveProperty("device");
    const document = await valid(`/DiagnosticReport/${reports[2]}/$document`, who.parent!.token);
    const observations = document.entry.filter((e: { resource: { resourceType: string } }) => e.resource.resourceType === "Observation");
    expect(observations).toHaveLength(3);
    expect(observations.some((e: { resource: object }) => "device" in e.resource)).toBe(false);
  });

  test("Observation search: nine for three months, sorted by date, paged with links; code and date filters; bad parameters are 400", async () => {
    const all = await valid(`/Observation?subject=Patient/${babyId}`, who.staff!.token);
    expect(all.total).toBe(9);
    const dates = all.entry.map((e: { resource: { effectiveDateTime: string } }) => e.resource.effectiveDateTime);
    expect(dates).toEqual([...dates].sort());
    expect(new Set(dates)).toEqual(new Set(MONTHS));

    const first = await valid(`/Observation?subject=Patient/${babyId}&_count=4`, who.parent!.token);
    expect(first.entry).toHaveLength(4);
    const next = first.link.find((l: { relation: string }) => l.relation === "next").url as string;
    const second = await valid(next, who.parent!.token);
    expect(second.entry.map((e: { resource: { id: string } }) => e.resource.id)).toEqual(all.entry.slice(4, 8).map((e: { resource: { id: string } }) => e.resource.id));
    expect(second.link.map((l: { relation: string }) => l.relation)).toEqual(["self", "first", "previous", "next", "last"]);

    const cvai = await valid(`/Observation?subject=Patient/${babyId}&code=${encodeURIComponent(`${SYSTEMS.crown}|cranial-vault-asymmetry-index`)}`, who.physician!.token);
    expect(cvai.total).toBe(3);
    const recent = await valid(`/Observation?subject=${babyId}&date=ge2026-09-01&_sort=-date`, who.physician!.token);
    expect(recent.total).toBe(6);
    expect(recent.entry[0].resource.effectiveDateTime).toBe(MONTHS[2]);
    const september = await valid(`/Observation?subject=${babyId}&date=ge2026-09-01&date=lt2026-10-01&code=cephalic-index`, who.physician!.token);
    expect(september.entry.map((e: { resource: { id: string } }) => e.resource.id)).toEqual([`${reports[1]}-ci`]);

    for (const query of ["", "subject=Patient/x&code=8302-2", "subject=x&date=yesterday", "subject=x&_count=0", "subject=x&_count=101", "subject=x&_sort=code", "subject=x&colour=red"]) {
      const r = await fhir(`/Observation?${query}`, who.parent!.token);
      expect(r.status, query).toBe(400);
      expect(r.json.issue[0].code).toBe("invalid");
    }
    const theirs = await fhir(`/Observation?subject=Patient/${babyId}`, who.otherParent!.token);
    expect(theirs.status).toBe(404);
  });

  test("$document: a valid document Bundle naming the baby, with the Composition first, the report, three Observations and the PDF inside", async () => {
    const doc = await valid(`/DiagnosticReport/${reports[0]}/$document`, who.parent!.token);
    expect(doc.type).toBe("document");
    const types = doc.entry.map((e: { resource: { resourceType: string } }) => e.resource.resourceType);
    expect(types[0]).toBe("Composition");
    expect(types.filter((t: string) => t === "Observation")).toHaveLength(3);
    expect(types).toEqual(expect.arrayContaining(["Patient", "Practitioner", "DiagnosticReport"]));
    const composition = doc.entry[0].resource;
    expect(composition.status).toBe("amended");
    expect(composition.type.coding[0]).toMatchObject({ system: "http://loinc.org", code: "18748-4" });
    const patient = doc.entry.find((e: { resource: { resourceType: string } }) => e.resource.resourceType === "Patient").resource;
    expect(patient.name[0].given[0]).toBe("Noa");
    for (const e of doc.entry) expect(e.fullUrl).toBe(`http://crown.test/fhir/R4/${e.resource.resourceType}/${e.resource.id}`);
    const form = doc.entry.find((e: { resource: { resourceType: string } }) => e.resource.resourceType === "DiagnosticReport").resource.presentedForm[0];
    const bytes = Buffer.from(form.data, "base64");
    expect(bytes.length).toBe(form.size);
    expect(createHash("sha1").update(bytes).digest("base64")).toBe(form.hash);
    expect((await fhir(`/DiagnosticReport/${reports[0]}/$everything`, who.parent!.token)).status).toBe(404);
    expect((await fhir(`/DiagnosticReport/${reports[0]}/$document`, who.otherPhysician!.token)).status).toBe(404);
  });

  test("read-only: other methods are 405 with an OperationOutcome; unknown resources 404", async () => {
    const put = await fhir(`/Patient/${babyId}`, who.parent!.token, { method: "PUT", body: "{}", headers: { "content-type": "application/fhir+json" } });
    expect(put.status).toBe(405);
    expect(put.json.resourceType).toBe("OperationOutcome");
    expect((await fhir("/Encounter/1", who.parent!.token)).status).toBe(404);
  });

  test("hostile input is a 4xx OperationOutcome, never a 500", async () => {
    const cases: Array<[string, number]> = [
      ["/Patient/%00", 404],
      [`/Patient/${"x".repeat(5000)}`, 404],
      ["/DiagnosticReport/%F0%28%8C%28", 404],
      [`/Observation?subject=${babyId}&date=%00`, 400],
      [`/Observation?subject=${babyId}&_count=1e3`, 400],
      [`/Observation?subject=${babyId}&_offset=-1`, 400],
      [`/Observation?subject=Patient/${babyId}&subject=Patient/${babyId}`, 400],
      [`/Observation?subject=${"P".repeat(70)}`, 400],
      [`/Observation/${"-ci".repeat(400)}`, 404],
    ];
    for (const [path, status] of cases) {
      const r = await fhir(path, who.parent!.token);
      expect(r.status, path).toBe(status);
      expect(r.json.resourceType, path).toBe("OperationOutcome");
    }
  });

  test("reads are audited: one row per report read or listed, and the baby's record read", async () => {
    const rowsOf = async (response: Response) =>
      (await sql<{ action: string; actor_id: string; subject_id: string; on_behalf_of: string | null; details: Record<string, unknown> }>`select action, actor_id, subject_id, on_behalf_of, details from audit_events where request_id = ${response.headers.get("x-request-id")} order by id`.execute(s.db)).rows;
    const dr = await fhir(`/DiagnosticReport/${reports[2]}`, who.staff!.token);
    expect(await rowsOf(dr.response)).toMatchObject([{ action: "report.viewed", actor_id: who.staff!.id, on_behalf_of: who.physician!.id, subject_id: reports[2], details: { baby: babyId, fhir: "DiagnosticReport" } }]);
    const search = await fhir(`/Observation?subject=Patient/${babyId}`, who.parent!.token);
    const listed = await rowsOf(search.response);
    expect(listed.map((r) => r.action)).toEqual(["report.listed", "report.listed", "report.listed"]);
    expect(new Set(listed.map((r) => r.subject_id))).toEqual(new Set(reports));
    const patient = await fhir(`/Patient/${babyId}`, who.physician!.token);
    expect(await rowsOf(patient.response)).toMatchObject([{ action: "baby.viewed", actor_id: who.physician!.id, subject_id: babyId }]);
    const doc = await fhir(`/DiagnosticReport/${reports[1]}/$document`, who.parent!.token);
    expect(await rowsOf(doc.response)).toMatchObject([{ action: "report.viewed", subject_id: reports[1], details: { fhir: "document" } }]);
    // A refused read leaves no row of a child's data.
    const refused = await fhir(`/DiagnosticReport/${reports[1]}`, who.otherParent!.token);
    expect(await rowsOf(refused.response)).toEqual([]);
  });
});
