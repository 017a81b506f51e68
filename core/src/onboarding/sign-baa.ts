import { fill } from "../shared/i18n.ts";
import { STATUS_MESSAGES } from "../shared/messages.ts";
import { Effect, Option } from "effect";
import { CurrentUser, Users } from "../accounts/model.ts";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "../shared/errors.ts";
import { audit, now, Random, RequestContext, transaction } from "../shared/ports.ts";
import { factsOf, onboardingFlags } from "./lifecycle.ts";
import { MESSAGES } from "./messages.ts";
import { BAA_TEXT_VERSION, BaaSignatures } from "./model.ts";
import { blanksAsAbsent, freshCaller, step } from "./policy.ts";
import { presentSignature } from "./present.ts";
import { SignBaaRequest, validateForm } from "./schemas.ts";

/** The physician's BAA signature, stored with the agreement text version; signing again answers the first signature. */
export const signBaa = (input: unknown) =>
  Effect.gen(function* () {
    const { user: current } = yield* CurrentUser;
    if (current.type !== "physician") return yield* new Forbidden({ message: MESSAGES.baaPhysiciansOnly });
    const request = yield* validateForm(SignBaaRequest, blanksAsAbsent(input));
    if (request.identifier && request.identifier !== current.id) return yield* NotFound.of("User");
    if (request.email && request.email.toLowerCase() !== current.email) return yield* ValidationFailed.field("email", MESSAGES.baaEmailMismatch);
    const user = yield* freshCaller;
    const signatures = yield* BaaSignatures;
    if (user.baaSignedAt !== null) {
      const existing = yield* signatures.latestFor(user.id);
      return { ...onboardingFlags(factsOf(user)), signature: Option.getOrNull(Option.map(existing, presentSignature)) };
    }
    const next = step(user, { type: "BAA_SIGNED" });
    if (next === null) return yield* new Conflict({ message: fill(STATUS_MESSAGES.baaRefused, { status: user.status }) });
    const request_ = yield* Effect.serviceOption(RequestContext);
    const signature = {
      id: (yield* Random).identifier(),
      userId: user.id,
      name: request.name,
      email: user.email,
      coveredEntity: request.covered_entity,
      textVersion: BAA_TEXT_VERSION,
      ip: Option.isSome(request_) ? request_.value.ip : null,
      signedAt: yield* now,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* signatures.insert(signature);
        yield* (yield* Users).update(user.id, { baaSignedAt: signature.signedAt });
        yield* audit({ action: "onboarding.baa_signed", actorId: user.id, subjectId: user.id, details: { text_version: BAA_TEXT_VERSION, covered_entity: request.covered_entity } });
      }),
    );
    return { ...onboardingFlags(next.facts), signature: presentSignature(signature) };
  });
