import { Effect, Option } from "effect";
import { NotFound, ValidationFailed } from "../shared/errors.ts";
import { audit, BlobStore, ContentSniffer, Random, transaction } from "../shared/ports.ts";
import { CurrentUser, Users } from "./model.ts";
import { PROFILE_PHOTO_MAX_BYTES } from "./policy.ts";
import { MESSAGES } from "./messages.ts";

/** Replaces the profile photo; the type is decided by the bytes, and only PNG and JPEG pass. */
export const updateProfilePhoto = (bytes: Uint8Array | null) =>
  Effect.gen(function* () {
    const { user } = yield* CurrentUser;
    if (bytes === null || bytes.length === 0) return yield* ValidationFailed.field("profile_photo", MESSAGES.photoMissing);
    if (bytes.length > PROFILE_PHOTO_MAX_BYTES) {
      return yield* ValidationFailed.field("profile_photo", MESSAGES.photoTooLarge);
    }
    const kind = yield* (yield* ContentSniffer).sniff(bytes.subarray(0, 4100));
    if (Option.isNone(kind) || (kind.value.mime !== "image/png" && kind.value.mime !== "image/jpeg")) {
      return yield* ValidationFailed.field("profile_photo", MESSAGES.photoType);
    }
    const blobs = yield* BlobStore;
    const key = `profile-photos/${user.id}/${(yield* Random).identifier()}.${kind.value.ext}`;
    yield* blobs.put(key, bytes, kind.value.mime);
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* Users).update(user.id, { photoKey: key, photoType: kind.value.mime });
        yield* audit({ action: "profile.photo_updated", actorId: user.id, subjectId: user.id });
      }),
    );
    // The old photo goes only after the new one is committed, so a failure never leaves none.
    if (user.photoKey) yield* blobs.remove(user.photoKey);
    return { ...user, photoKey: key, photoType: kind.value.mime };
  });

export const removeProfilePhoto = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  yield* transaction(
    Effect.gen(function* () {
      yield* (yield* Users).update(user.id, { photoKey: null, photoType: null });
      yield* audit({ action: "profile.photo_removed", actorId: user.id, subjectId: user.id });
    }),
  );
  if (user.photoKey) yield* (yield* BlobStore).remove(user.photoKey);
  return { ...user, photoKey: null, photoType: null };
});

export const readProfilePhoto = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  const missing = NotFound.of("Profile photo");
  if (!user.photoKey) return yield* missing;
  const blob = yield* (yield* BlobStore).get(user.photoKey);
  if (Option.isNone(blob)) return yield* missing;
  return blob.value;
});
