import type { User } from "../accounts/model.ts";
import { bandOf, CI_BANDS, CVAI_BANDS, type SeverityBand } from "../measurement/bands.ts";
import { type Baby, babyName } from "../onboarding/model.ts";
import { displayName } from "../accounts/access.ts";
import { isPublished } from "../report/lifecycle.ts";
import { bandCode, CODES, type Code, type Measure, MEASURES, SYSTEMS } from "./codes.ts";
import type { Reference, Resource } from "./model.ts";
import type { PublishedPdf, PublishedRecord } from "./records.ts";

/**
 * Crown's published data as FHIR R4 resources (ADR 0053). Pure: the use cases load the records,
 * these only say them in FHIR's words, so every resource is the same whichever route serves it.
 */

const concept = (...codings: ReadonlyArray<Code>) => ({ coding: codings.map(({ system, code, display }) => ({ system, code, display })), text: codings[0]!.display });

const patientRef = (baby: Baby): Reference => ({ reference: `Patient/${baby.id}`, display: babyName(baby) });
const practitionerRef = (user: User): Reference => ({ reference: `Practitioner/${user.id}`, display: displayName(user) });


/** The status of a published version: the first is final, a republished one amends it. */
export const publishedStatus = (version: number) => (version > 1 ? "amended" : "final");

/** When the photos were taken: the upload that was measured. */
const capturedAt = (record: PublishedRecord) => (record.report.submittedAt ?? record.report.createdAt).toISOString();

const versionMeta = (record: PublishedRecord) => ({ versionId: String(record.version.version), lastUpdated: record.version.publishedAt.toISOString() });

export const presentPatient = (baby: Baby, physician: User | null): Resource => ({
  resourceType: "Patient",
  id: baby.id,
  identifier: [{ use: "secondary", system: SYSTEMS.babyId, value: baby.id }],
  name: [{ use: "official", text: babyName(baby), family: baby.lastName, given: [baby.firstName, ...(baby.middleName ? [baby.middleName] : [])] }],
  ...(baby.gender ? { gender: baby.gender } : {}),
  birthDate: baby.dateOfBirth,
  ...(physician ? { generalPractitioner: [practitionerRef(physician)] } : {}),
});

export const presentPractitioner = (user: User): Resource => ({
  resourceType: "Practitioner",
  id: user.id,
  identifier: [
    ...(user.npi ? [{ use: "official", system: SYSTEMS.npi, value: user.npi }] : []),
    { use: "secondary", system: SYSTEMS.userId, value: user.id },
  ],
  active: true,
  name: [{ text: displayName(user), family: user.lastName, given: [user.firstName], ...(user.type === "physician" ? { prefix: ["Dr."] } : {}) }],
});

export const observationId = (reportId: string, measure: Measure) => `${reportId}-${measure.slug}`;

const quantity = (value: number, measure: Measure) => ({ value, unit: measure.unit.unit, system: SYSTEMS.ucum, code: measure.unit.code });

/** The severity bands as reference ranges; the normal band is marked so. FHIR's `high` is inclusive, the bands' upper bound is not (ADR 0053). */
const referenceRanges = (measure: Measure, bands: readonly SeverityBand[], isNormal: (b: SeverityBand) => boolean) =>
  bands.map((band) => ({
    ...(band.from !== null ? { low: quantity(band.from, measure) } : {}),
    ...(band.to !== null ? { high: quantity(band.to, measure) } : {}),
    ...(isNormal(band) ? { type: concept(CODES.normalRange) } : {}),
    text: band.label,
  }));

const bandsOf = (measure: Measure) =>
  measure.key === "ci"
    ? { kind: "ci" as const, bands: CI_BANDS as readonly SeverityBand[], normal: (b: SeverityBand) => b === CI_BANDS.find((c) => c.name === "typical") }
    : measure.key === "cvai"
      ? { kind: "cvai" as const, bands: CVAI_BANDS as readonly SeverityBand[], normal: (b: SeverityBand) => b === CVAI_BANDS[0] }
      : null;

/**
 * The model(s) that measured the counted photos, as recorded when they measured (ADR 0066) — never
 * the model installed now. Omitted where that is unknown (photos measured before it was recorded).
 */
const deviceRef = (record: PublishedRecord) => {
  const models = record.version.summary.models ?? [];
  return models.length > 0 ? { device: { display: models.map((m) => `${m.name} ${m.version}`).join(", ") } } : {};
};

/** One Observation per measure of the version's printed figures (the median of the counted photos). */
export const presentObservations = (record: PublishedRecord): ReadonlyArray<Resource> =>
  MEASURES.map((measure) => {
    const spread = record.version.summary[measure.key];
    const table = bandsOf(measure);
    const band = spread && table ? bandOf(spread.median, table.bands) : null;
    return {
      resourceType: "Observation",
      id: observationId(record.report.id, measure),
      meta: versionMeta(record),
      status: publishedStatus(record.version.version),
      category: [concept(CODES.observationCategory)],
      code: concept(measure.code),
      subject: patientRef(record.baby),
      effectiveDateTime: capturedAt(record),
      issued: record.version.publishedAt.toISOString(),
      ...(record.reviewer ? { performer: [practitionerRef(record.reviewer)] } : {}),
      ...(spread
        ? { valueQuantity: quantity(spread.median, measure) }
        : { dataAbsentReason: { ...concept(CODES.notPerformed), text: measure.key === "cva_mm" ? "No counted photo had a sticker to scale by" : "No photo could be counted" } }),
      ...(band && table
        ? { interpretation: [{ ...concept(table.normal(band) ? CODES.normal : CODES.abnormal, bandCode(table.kind, band)), text: band.label }] }
        : {}),
      ...(spread ? { note: [{ text: `Median of ${spread.count} counted photo${spread.count === 1 ? "" : "s"} (${spread.min} to ${spread.max})` }] } : {}),
      method: concept(CODES.method),
      ...deviceRef(record),
      ...(table ? { referenceRange: referenceRanges(measure, table.bands, table.normal) } : {}),
    };
  });

/** Where the caller downloads the PDF: the provider's or the parent's address of the same file. */
export const pdfUrl = (apiUrl: string, reportId: string, relation: string) =>
  `${apiUrl}/report/${reportId}/${relation === "parent" ? "parent-download" : "download"}`;

export const presentDiagnosticReport = (record: PublishedRecord, pdf: PublishedPdf, url: string, options: { data?: string } = {}): Resource => {
  const reviewer = record.reviewer ? [practitionerRef(record.reviewer)] : [];
  // The note as published: while a report is back in review, its draft note is nobody's to export.
  const note = isPublished(record.report.status) ? record.report.reviewNote : null;
  return {
    resourceType: "DiagnosticReport",
    id: record.report.id,
    meta: versionMeta(record),
    identifier: [{ system: SYSTEMS.reportId, value: `${record.report.id}/${record.version.version}` }],
    status: publishedStatus(record.version.version),
    category: [concept(CODES.category)],
    code: concept(CODES.screening),
    subject: patientRef(record.baby),
    effectiveDateTime: capturedAt(record),
    issued: record.version.publishedAt.toISOString(),
    ...(reviewer.length ? { performer: reviewer, resultsInterpreter: reviewer } : {}),
    result: MEASURES.map((m) => ({ reference: `Observation/${observationId(record.report.id, m)}`, display: m.code.display })),
    ...(note ? { conclusion: note } : {}),
    presentedForm: [
      {
        contentType: "application/pdf",
        ...(options.data ? { data: options.data } : {}),
        url,
        size: pdf.size,
        hash: pdf.sha1,
        title: `Head shape screening report, version ${record.version.version}.pdf`,
        creation: record.version.publishedAt.toISOString(),
      },
    ],
  };
};

const entry = (baseUrl: string, resource: Resource) => ({ fullUrl: `${baseUrl}/${resource.resourceType}/${resource.id}`, resource });

/**
 * `DiagnosticReport/{id}/$document`: a document Bundle, Composition first, then everything it
 * references, ready for an EHR to import as one signed-off report.
 */
export const presentDocument = (baseUrl: string, record: PublishedRecord, report: Resource, observations: ReadonlyArray<Resource>, at: Date): Resource => {
  const people = [record.reviewer, record.physician].filter((u): u is User => u !== null);
  const composition: Resource = {
    resourceType: "Composition",
    id: `${record.report.id}-${record.version.version}`,
    status: record.version.version > 1 ? "amended" : "final",
    type: concept(CODES.document, CODES.screening),
    category: [concept(CODES.category)],
    subject: patientRef(record.baby),
    date: record.version.publishedAt.toISOString(),
    author: record.reviewer ? [practitionerRef(record.reviewer)] : [{ display: "Crown" }],
    title: "Head shape screening report",
    ...(record.reviewer ? { attester: [{ mode: "professional", time: record.version.publishedAt.toISOString(), party: practitionerRef(record.reviewer) }] } : {}),
    section: [
      {
        title: "Results",
        code: concept(CODES.screening),
        entry: [{ reference: `DiagnosticReport/${record.report.id}` }, ...observations.map((o) => ({ reference: `Observation/${o.id}` }))],
      },
    ],
  };
  const unique = [...new Map(people.map((p) => [p.id, p])).values()];
  return {
    resourceType: "Bundle",
    identifier: { system: SYSTEMS.reportId, value: `${record.report.id}/${record.version.version}` },
    type: "document",
    timestamp: at.toISOString(),
    entry: [composition, presentPatient(record.baby, record.physician), ...unique.map(presentPractitioner), report, ...observations].map((r) => entry(baseUrl, r)),
  };
};

export interface SearchPage {
  readonly total: number;
  /** The search's own address without paging, e.g. `.../Observation?subject=Patient/1`. */
  readonly self: string;
  readonly offset: number;
  readonly count: number;
}

const pageUrl = (self: string, offset: number, count: number) => `${self}${self.includes("?") ? "&" : "?"}_count=${count}&_offset=${offset}`;

/** A searchset Bundle: one page of matches with first/previous/next/last links. */
export const presentSearchSet = (baseUrl: string, resources: ReadonlyArray<Resource>, page: SearchPage): Resource => {
  const last = Math.max(0, Math.floor((page.total - 1) / page.count) * page.count);
  const links = [
    { relation: "self", url: pageUrl(page.self, page.offset, page.count) },
    { relation: "first", url: pageUrl(page.self, 0, page.count) },
    ...(page.offset > 0 ? [{ relation: "previous", url: pageUrl(page.self, Math.max(0, page.offset - page.count), page.count) }] : []),
    ...(page.offset + page.count < page.total ? [{ relation: "next", url: pageUrl(page.self, page.offset + page.count, page.count) }] : []),
    { relation: "last", url: pageUrl(page.self, last, page.count) },
  ];
  return {
    resourceType: "Bundle",
    type: "searchset",
    total: page.total,
    link: links,
    entry: resources.map((r) => ({ ...entry(baseUrl, r), search: { mode: "match" } })),
  };
};

/** The body of every FHIR error: one issue, its code from FHIR's issue-type list. */
export const operationOutcome = (code: "not-found" | "login" | "forbidden" | "invalid" | "conflict" | "too-long" | "throttled" | "exception", text: string): Resource => ({
  resourceType: "OperationOutcome",
  issue: [{ severity: "error", code, diagnostics: text, details: { text } }],
});
