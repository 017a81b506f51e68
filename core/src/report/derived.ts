import { Effect, Option } from "effect";
import { BlobStore, type StoredBlob } from "../shared/ports.ts";
import { type Attachment, Images } from "./model.ts";

/**
 * What is served of a photo (ADR 0031): a clean JPEG at display size and a thumbnail, each made once
 * — when the analysis measures the photo, or at its first view — and kept beside it in the blob
 * store. A view never decodes the original again.
 */
export const DISPLAY_SIDE = 2048;
export const THUMBNAIL_SIDE = 320;

export type DerivedKind = "display" | "thumbnail";

const derivedKeyOf = (attachmentId: string, kind: DerivedKind) => `derived/${attachmentId}.${kind}.jpg`;
const derivedKey = (attachment: Attachment, kind: DerivedKind) => derivedKeyOf(attachment.id, kind);
/** Every served copy an attachment may have (an erasure removes them with the original). */
export const derivedKeysOf = (attachmentId: string) => (["display", "thumbnail"] as const).map((kind) => derivedKeyOf(attachmentId, kind));

const blobOf = (bytes: Uint8Array): StoredBlob => ({
  body: new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  }),
  contentType: "image/jpeg",
  size: bytes.byteLength,
});

/** Makes and keeps the copy from the original bytes; None when they are no readable image. */
const makeDerived = (attachment: Attachment, kind: DerivedKind, original: Uint8Array) =>
  Effect.gen(function* () {
    const images = yield* Images;
    const made = kind === "display" ? yield* images.clean(original, DISPLAY_SIDE) : yield* images.thumbnail(original, THUMBNAIL_SIDE);
    if (Option.isSome(made)) yield* (yield* BlobStore).put(derivedKey(attachment, kind), made.value, "image/jpeg");
    return made;
  });

/** The kept copy of a photo, made now if it is not there yet. None: the original is missing or unreadable. */
export const derivedImage = (attachment: Attachment, kind: DerivedKind) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore;
    const kept = yield* blobs.get(derivedKey(attachment, kind));
    if (Option.isSome(kept)) return kept;
    const original = yield* blobs.get(attachment.blobKey);
    if (Option.isNone(original)) return Option.none<StoredBlob>();
    const bytes = new Uint8Array(yield* Effect.promise(() => new Response(original.value.body).arrayBuffer()));
    return Option.map(yield* makeDerived(attachment, kind, bytes), blobOf);
  });

/** At analysis, with the photo's bytes already read: both copies made once, so views never decode. */
export const prepareDerivedImages = (attachment: Attachment, original: Uint8Array) =>
  Effect.forEach(["display", "thumbnail"] as const, (kind) => makeDerived(attachment, kind, original), { discard: true });
