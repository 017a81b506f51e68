import { Effect, Option } from "effect";
import { factsOf, onboardingFlags } from "./lifecycle.ts";
import { BAA_TEXT_VERSION, BaaSignatures } from "./model.ts";
import { freshCaller } from "./policy.ts";

/** GET /user/onboarding: the caller's step, flags and BAA signature. */
export const onboardingStatus = Effect.gen(function* () {
  const user = yield* freshCaller;
  const signature = user.type === "physician" ? yield* (yield* BaaSignatures).latestFor(user.id) : Option.none();
  return {
    status: user.status,
    ...onboardingFlags(factsOf(user)),
    baa: Option.match(signature, {
      onNone: () => null,
      onSome: (s) => ({ name: s.name, covered_entity: s.coveredEntity, text_version: s.textVersion, signed_at: s.signedAt.toISOString() }),
    }),
    baa_text_version: BAA_TEXT_VERSION,
  };
});
