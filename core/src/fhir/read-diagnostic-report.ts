import { Effect } from "effect";
import { auditReportReads, READ_AUDIT } from "../report/read-audit.ts";
import { FhirConfig } from "./model.ts";
import { publishedPdf, publishedRecord } from "./records.ts";
import { pdfUrl, presentDiagnosticReport } from "./present.ts";

/** `GET /DiagnosticReport/{id}`: the latest published version of a report, its PDF described (url, size, SHA-1). */
export const readDiagnosticReport = (reportId: string) =>
  Effect.gen(function* () {
    const { caller, relation, record } = yield* publishedRecord(reportId);
    const pdf = yield* publishedPdf(record.version);
    const settings = yield* FhirConfig;
    yield* auditReportReads(READ_AUDIT.viewed, caller, [record.report], { fhir: "DiagnosticReport", version: record.version.version });
    return presentDiagnosticReport(record, pdf, pdfUrl(settings.apiUrl, record.report.id, relation));
  });
