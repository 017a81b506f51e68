import { Effect } from "effect";
import { CODES, crownConcepts, FHIR_JSON, FHIR_VERSION, SYSTEMS } from "./codes.ts";
import { FhirConfig, type Resource } from "./model.ts";

/** When the API's shape last changed (the CapabilityStatement's date). */
const CAPABILITY_DATE = "2026-11-24";

/** The operation behind `DiagnosticReport/{id}/$document` (Crown's: FHIR defines `$document` on Composition only). */
export const DOCUMENT_OPERATION = "http://crown.health/fhir/OperationDefinition/DiagnosticReport-document";

const read = [{ code: "read" }];

/** Exactly what the API serves; the authorization test calls every interaction listed here. */
export const capabilityStatement = (baseUrl: string): Resource => ({
  resourceType: "CapabilityStatement",
  status: "active",
  date: CAPABILITY_DATE,
  publisher: "Crown",
  kind: "instance",
  implementation: { description: "Crown: published infant head-shape screening reports", url: baseUrl },
  fhirVersion: FHIR_VERSION,
  format: [FHIR_JSON, "json"],
  rest: [
    {
      mode: "server",
      documentation: "Read-only. Every call but metadata and CodeSystem needs a bearer token from POST /api/v1/en/user/sign-in.",
      security: { cors: false, description: "Bearer token (Authorization: Bearer ...), as the rest of Crown's API." },
      resource: [
        { type: "Patient", interaction: read },
        { type: "Practitioner", interaction: read },
        {
          type: "DiagnosticReport",
          interaction: read,
          operation: [{ name: "document", definition: DOCUMENT_OPERATION, documentation: "A document Bundle of the published report, ready to import." }],
        },
        {
          type: "Observation",
          interaction: [...read, { code: "search-type" }],
          searchParam: [
            { name: "subject", type: "reference", documentation: "Required: Patient/{id}." },
            { name: "code", type: "token", documentation: `${SYSTEMS.crown}|code; comma-separated for several.` },
            { name: "date", type: "date", documentation: "The capture time, with eq, ge, gt, le or lt; repeat for a range." },
            { name: "_count", type: "number", documentation: "Page size, 1 to 100 (20 unless given)." },
            { name: "_offset", type: "number", documentation: "Matches to skip (the paging links carry it)." },
            { name: "_sort", type: "string", documentation: "date (oldest first, the default) or -date." },
          ],
        },
        { type: "CodeSystem", interaction: read, documentation: `Only ${SYSTEMS.crown} (CodeSystem/head-shape).` },
      ],
    },
  ],
});

/** `GET /metadata` (no token needed, as FHIR clients expect). */
export const readCapabilityStatement = Effect.map(FhirConfig, (settings) => capabilityStatement(settings.baseUrl));

export const CODE_SYSTEM_ID = "head-shape";

/** Crown's own CodeSystem, for CI, CVAI, CVA and the screening, which LOINC does not name (ADR 0053). */
export const crownCodeSystem = (): Resource => ({
  resourceType: "CodeSystem",
  id: CODE_SYSTEM_ID,
  url: SYSTEMS.crown,
  version: "1",
  name: "CrownHeadShape",
  title: "Crown infant head shape screening",
  status: "active",
  experimental: false,
  date: CAPABILITY_DATE,
  publisher: "Crown",
  description: `Measures of an infant's head shape from photos, their severity bands, and how they were taken. ${CODES.screening.display}.`,
  caseSensitive: true,
  content: "complete",
  concept: crownConcepts(),
});
