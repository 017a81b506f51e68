import { Effect, Option } from "effect";
import { NotFound, ValidationFailed } from "../shared/errors.ts";
import { discardBlobs, keepBlobs, putThenName, retireBlobs } from "../shared/pending-blobs.ts";
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
    const key = `profile-photos/${user.id}/${(yield* Random).identifier()}.${kind.value.ext}`;
    // The new photo is pending until the row names it; the old one pending from the moment the row
    // stops naming it, and removed after the commit (ADR 0051, 0064): a crash anywhere leaves no orphan.
    const replaced = yield* putThenName(
      [{ key, body: bytes, contentType: kind.value.mime }],
      transaction(
        Effect.gen(function* () {
          yield* keepBlobs([key]);
          const old = yield* currentPhotoKey(user.id);
          yield* (yield* Users).update(user.id, { photoKey: key, photoType: kind.value.mime });
          yield* audit({ action: "profile.photo_updated", actorId: user.id, subjectId: user.id });
          return old;
        }),
      ),
    );
    yield* discardBlobs(replaced);
    return { ...user, photoKey: key, photoType: kind.value.mime };
  });

/** The photo the row names now (not the one read at sign-in), retired in the same transaction that drops it. */
const currentPhotoKey = (userId: string) =>
  Effect.gen(function* () {
    const current = yield* (yield* Users).findById(userId);
    const keys = Option.isSome(current) && current.value.photoKey ? [current.value.photoKey] : [];
    yield* retireBlobs(keys);
    return keys;
  });

export const removeProfilePhoto = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  const removed = yield* transaction(
    Effect.gen(function* () {
      const old = yield* currentPhotoKey(user.id);
      yield* (yield* Users).update(user.id, { photoKey: null, photoType: null });
      yield* audit({ action: "profile.photo_removed", actorId: user.id, subjectId: user.id });
      return old;
    }),
  );
  yield* discardBlobs(removed);
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
