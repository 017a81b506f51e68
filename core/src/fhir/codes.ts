import { CI_BANDS, CVAI_BANDS, type SeverityBand } from "../measurement/bands.ts";

/**
 * Every code and identifier system the FHIR API writes (ADR 0053), in one place. LOINC only where
 * a code truly exists for the concept: there is none for CI, CVAI, CVA or a head-shape screening,
 * so those are in Crown's own CodeSystem, whose canonical URL never changes with a deployment.
 * Plain data: the portal may import it.
 */

/** FHIR R4 (4.0.1) is what the API serves. */
export const FHIR_VERSION = "4.0.1";
/** Where the FHIR API is, from the server's root (the portal's export calls it too). */
export const FHIR_PATH = "/fhir/R4";
/** The media type of every answer (FHIR's JSON format). */
export const FHIR_JSON = "application/fhir+json";

const CANONICAL = "http://crown.health/fhir";

export const SYSTEMS = {
  /** Crown's CodeSystem for what LOINC does not name (served at `CodeSystem/head-shape`). */
  crown: `${CANONICAL}/CodeSystem/head-shape`,
  /** Crown's identifiers: a baby's and a user's ULID. */
  babyId: `${CANONICAL}/sid/baby`,
  userId: `${CANONICAL}/sid/user`,
  reportId: `${CANONICAL}/sid/report`,
  npi: "http://hl7.org/fhir/sid/us-npi",
  loinc: "http://loinc.org",
  ucum: "http://unitsofmeasure.org",
  diagnosticServiceSection: "http://terminology.hl7.org/CodeSystem/v2-0074",
  observationCategory: "http://terminology.hl7.org/CodeSystem/observation-category",
  interpretation: "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation",
  referenceRangeMeaning: "http://terminology.hl7.org/CodeSystem/referencerange-meaning",
  dataAbsentReason: "http://terminology.hl7.org/CodeSystem/data-absent-reason",
} as const;

export interface Code {
  readonly system: string;
  readonly code: string;
  readonly display: string;
}

const crown = (code: string, display: string): Code => ({ system: SYSTEMS.crown, code, display });

/** What a published report is: LOINC names the document kind; the screening itself is Crown's. */
export const CODES = {
  screening: crown("head-shape-screening", "Infant head shape screening from photos"),
  document: { system: SYSTEMS.loinc, code: "18748-4", display: "Diagnostic imaging study" },
  category: { system: SYSTEMS.diagnosticServiceSection, code: "IMG", display: "Diagnostic Imaging" },
  observationCategory: { system: SYSTEMS.observationCategory, code: "imaging", display: "Imaging" },
  method: crown("photo-measured-expert-reviewed", "Photo, automatic measurement reviewed by an expert"),
  normal: { system: SYSTEMS.interpretation, code: "N", display: "Normal" },
  abnormal: { system: SYSTEMS.interpretation, code: "A", display: "Abnormal" },
  notPerformed: { system: SYSTEMS.dataAbsentReason, code: "not-performed", display: "Not Performed" },
  normalRange: { system: SYSTEMS.referenceRangeMeaning, code: "normal", display: "Normal Range" },
} as const satisfies Record<string, Code>;

/** The three measures, each one Observation; `key` is the field of a report's summary. */
export const MEASURES = [
  { key: "ci", slug: "ci", code: crown("cephalic-index", "Cephalic index (CI)"), unit: { unit: "1", code: "1" } },
  { key: "cvai", slug: "cvai", code: crown("cranial-vault-asymmetry-index", "Cranial vault asymmetry index (CVAI)"), unit: { unit: "1", code: "1" } },
  { key: "cva_mm", slug: "cva", code: crown("cranial-vault-asymmetry", "Cranial vault asymmetry (CVA)"), unit: { unit: "mm", code: "mm" } },
] as const;
export type Measure = (typeof MEASURES)[number];
export type MeasureSlug = Measure["slug"];

/** A band of the severity tables as a code of Crown's CodeSystem (interpretation of an Observation). */
export const bandCode = (measure: "ci" | "cvai", band: SeverityBand & { readonly level?: number; readonly name?: string }): Code =>
  measure === "cvai" ? crown(`cvai-level-${band.level}`, band.label) : crown(`ci-${(band.name ?? "").replaceAll(" ", "-")}`, band.label);

/** Crown's CodeSystem as data: every code above, the bands from `core/src/measurement/bands.ts`. */
export const crownConcepts = (): ReadonlyArray<{ code: string; display: string }> => [
  ...[CODES.screening, CODES.method, ...MEASURES.map((m) => m.code)].map(({ code, display }) => ({ code, display })),
  ...CVAI_BANDS.map((b) => bandCode("cvai", b)).map(({ code, display }) => ({ code, display })),
  ...CI_BANDS.map((b) => bandCode("ci", b)).map(({ code, display }) => ({ code, display })),
];
