import { Context } from "effect";

/**
 * The FHIR R4 API's ports and shapes (issue 20). Resources are plain JSON objects: the API only
 * builds them (read-only), and the tests check every one against the R4 definitions.
 */

/** A FHIR resource as served: its JSON, `resourceType` first. */
export interface Resource {
  readonly resourceType: string;
  readonly id?: string;
  readonly [field: string]: unknown;
}

export interface Reference {
  readonly reference: string;
  readonly display?: string;
}

/** Where the API is: from the server's configuration. */
export interface FhirSettings {
  /** Absolute base of the FHIR API, e.g. `https://crown.example.org/fhir/R4` (bundles' fullUrl, paging links). */
  readonly baseUrl: string;
  /** Absolute base of the JSON API, e.g. `https://crown.example.org/api/v1/en` (the PDF's download address). */
  readonly apiUrl: string;
}
export class FhirConfig extends Context.Tag("crown/FhirConfig")<FhirConfig, FhirSettings>() {}

/** What FHIR's Attachment holds of a file: its bytes in base64 (`data`) and their SHA-1 in base64 (`hash`). */
export interface AttachmentEncoderPort {
  readonly base64: (bytes: Uint8Array) => string;
  readonly sha1Base64: (bytes: Uint8Array) => string;
}
export class AttachmentEncoder extends Context.Tag("crown/AttachmentEncoder")<AttachmentEncoder, AttachmentEncoderPort>() {}
