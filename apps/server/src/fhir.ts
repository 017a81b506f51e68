import { Layer } from "effect";
import { FhirConfig } from "@crown/core/fhir/index";
import { attachmentEncoderLayer } from "@crown/crypto/attachment";
import { API_BASE, FHIR_BASE } from "@crown/http";

/** The FHIR API's settings and its Attachment encoding (issue 20). */
export const fhirLayer = (publicUrl: string) =>
  Layer.merge(
    Layer.succeed(FhirConfig, { baseUrl: `${publicUrl}${FHIR_BASE}`, apiUrl: `${publicUrl}${API_BASE}` }),
    attachmentEncoderLayer,
  );
