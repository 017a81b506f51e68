// The FHIR R4 API of published reports (issue 20, ADR 0053): read-only, the same callers and audit as the rest.
export * from "./codes.ts";
export * from "./model.ts";
export * from "./policy.ts";
export * from "./present.ts";
export * from "./metadata.ts";
export * from "./read-patient.ts";
export * from "./read-practitioner.ts";
export * from "./read-diagnostic-report.ts";
export * from "./read-observation.ts";
export * from "./search-observations.ts";
export * from "./report-document.ts";
