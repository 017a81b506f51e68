import { Effect } from "effect";
import { auditReportReads, READ_AUDIT } from "../report/read-audit.ts";
import { now } from "../shared/ports.ts";
import { AttachmentEncoder, FhirConfig } from "./model.ts";
import { publishedPdf, publishedRecord } from "./records.ts";
import { pdfUrl, presentDiagnosticReport, presentDocument, presentObservations } from "./present.ts";

/**
 * `GET /DiagnosticReport/{id}/$document`: the published report as a FHIR document Bundle
 * (Composition, Patient, Practitioners, DiagnosticReport, Observations), the PDF inside it, so an
 * EHR imports it whole without calling back.
 */
export const reportDocument = (reportId: string) =>
  Effect.gen(function* () {
    const { caller, relation, record } = yield* publishedRecord(reportId);
    const settings = yield* FhirConfig;
    const pdf = yield* publishedPdf(record.version);
    const data = (yield* AttachmentEncoder).base64(pdf.bytes);
    const report = presentDiagnosticReport(record, pdf, pdfUrl(settings.apiUrl, record.report.id, relation), { data });
    yield* auditReportReads(READ_AUDIT.viewed, caller, [record.report], { fhir: "document", version: record.version.version });
    return presentDocument(settings.baseUrl, record, report, presentObservations(record), yield* now);
  });
