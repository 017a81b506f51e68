import { fill } from "../shared/i18n.ts";
import { STATUS_MESSAGES } from "../shared/messages.ts";
import { Effect } from "effect";
import { Users } from "../accounts/model.ts";
import { ACCESS_MESSAGES } from "../accounts/access.ts";
import { Conflict, Forbidden } from "../shared/errors.ts";
import { audit, now, transaction } from "../shared/ports.ts";
import { factsOf, onboardingFlags } from "./lifecycle.ts";
import { freshCaller, step } from "./policy.ts";
import { AcceptDisclaimerRequest, validateForm } from "./schemas.ts";
import { awaitsApproval } from "../accounts/lifecycle.ts";

/** The first-login disclaimer; accepting it again answers the flags as they are. */
export const acceptDisclaimer = (input: unknown) =>
  Effect.gen(function* () {
    yield* validateForm(AcceptDisclaimerRequest, input);
    const user = yield* freshCaller;
    if (user.disclaimerAcceptedAt !== null) return onboardingFlags(factsOf(user));
    const next = step(user, { type: "DISCLAIMER_ACCEPTED" });
    if (next === null) {
      return yield* awaitsApproval(user)
        ? new Forbidden({ message: ACCESS_MESSAGES.waitingApproval, status: user.status })
        : new Conflict({ message: fill(STATUS_MESSAGES.disclaimerRefused, { status: user.status }) });
    }
    const at = yield* now;
    yield* transaction(
      Effect.gen(function* () {
        yield* (yield* Users).update(user.id, { disclaimerAcceptedAt: at });
        yield* audit({ action: "onboarding.disclaimer_accepted", actorId: user.id, subjectId: user.id });
      }),
    );
    return onboardingFlags(next.facts);
  });
