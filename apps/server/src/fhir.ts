import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Layer } from "effect";
import { FhirConfig, type MeasuringDevice } from "@crown/core/fhir/index";
import { attachmentEncoderLayer } from "@crown/crypto/attachment";
import { API_BASE, FHIR_BASE } from "@crown/http";
import { DEFAULT_MODEL_PATH } from "./reports.ts";

/** The measuring model named in Observations: the model card beside the .onnx file (null when none is installed). */
export const measuringDevice = (modelPath = process.env.CROWN_MODEL ?? DEFAULT_MODEL_PATH): MeasuringDevice | null => {
  const card = join(dirname(modelPath), "model.json");
  if (!existsSync(card)) return null;
  const version = (JSON.parse(readFileSync(card, "utf8")) as { version?: unknown }).version;
  return typeof version === "string" ? { name: "Crown head-contour model", version } : null;
};

/** The FHIR API's settings and its Attachment encoding (issue 20). */
export const fhirLayer = (publicUrl: string) =>
  Layer.merge(
    Layer.succeed(FhirConfig, { baseUrl: `${publicUrl}${FHIR_BASE}`, apiUrl: `${publicUrl}${API_BASE}`, device: measuringDevice() }),
    attachmentEncoderLayer,
  );
