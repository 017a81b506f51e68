import { createHash } from "node:crypto";
import { AttachmentEncoder, type AttachmentEncoderPort } from "@crown/core/fhir/index";
import { Layer } from "effect";

/** FHIR's Attachment: the bytes and their SHA-1, both base64 (what `Attachment.data` and `.hash` are defined as). */
export const makeAttachmentEncoder = (): AttachmentEncoderPort => ({
  base64: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
  sha1Base64: (bytes) => createHash("sha1").update(bytes).digest("base64"),
});

export const attachmentEncoderLayer = Layer.sync(AttachmentEncoder, makeAttachmentEncoder);
