import { Effect } from "effect";
import { audit, transaction } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { CurrentUser, Users } from "./model.ts";
import { LanguageRequest } from "./schemas.ts";

/** The caller chooses their language: their e-mails and reports follow it from now on (ADR 77). */
export const changeLanguage = (input: unknown) =>
  Effect.gen(function* () {
    const { language } = yield* validate(LanguageRequest, input);
    const { user } = yield* CurrentUser;
    if (language !== user.language) {
      yield* transaction(
        Effect.gen(function* () {
          yield* (yield* Users).update(user.id, { language });
          yield* audit({ action: "profile.language", actorId: user.id, subjectId: user.id, details: { language } });
        }),
      );
    }
    return language;
  });
