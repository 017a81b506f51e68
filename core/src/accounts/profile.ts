import { Effect } from "effect";
import { audit, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { CurrentUser, Users } from "./model.ts";
import { profileOf } from "./present.ts";
import { ProfileUpdateRequest } from "./schemas.ts";

export const readProfile = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  yield* audit({ action: "profile.read", actorId: user.id, subjectId: user.id });
  return profileOf(user);
});

export const updateProfile = (input: unknown) =>
  Effect.gen(function* () {
    const request = yield* validate(ProfileUpdateRequest, input);
    const { user } = yield* CurrentUser;
    const patch = {
      firstName: request.first_name,
      lastName: request.last_name,
      phone: request.phone,
      // Fax numbers are kept only for physicians; e-mail is never editable here.
      ...(user.type === "physician" ? { faxNumber: request.fax_number ? request.fax_number : null } : {}),
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* Users).update(user.id, patch);
        yield* audit({ action: "profile.updated", actorId: user.id, subjectId: user.id, details: { fields: Object.keys(patch) } });
      }),
    );
    return { ...user, ...patch };
  });
