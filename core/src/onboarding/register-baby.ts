import { Effect, Option } from "effect";
import { CurrentUser, Users } from "../accounts/model.ts";
import { changeStatus } from "../accounts/change-status.ts";
import { ACCESS_MESSAGES, requireActive, requireType } from "../accounts/access.ts";
import { Forbidden } from "../shared/errors.ts";
import { audit, now, Random, transaction } from "../shared/ports.ts";
import { factsOf, needsBabyDetails, onboardingCan, onboardingStep } from "./lifecycle.ts";
import { MESSAGES } from "./messages.ts";
import { Babies } from "./model.ts";
import { babyFromRequest, blanksAsAbsent, resolvePhysician, today } from "./policy.ts";
import { presentBaby } from "./present.ts";
import { BabyRequest, validateForm } from "./schemas.ts";
import { awaitsApproval, isActive } from "../accounts/lifecycle.ts";

/**
 * The first baby of a parent (also any later one: a parent who is Active already simply adds it).
 * A baby with 'No Physician' puts the account in WaitingApproval until an admin has looked at it
 * (api-contract.md: a physician who is not on Crown); the answer carries `parent_status`.
 */
export const registerBaby = (input: unknown) =>
  Effect.gen(function* () {
    const caller = yield* requireType("parent");
    const request = yield* validateForm(BabyRequest(yield* today), blanksAsAbsent(input));
    const physician = yield* resolvePhysician(request.physician_identifier);
    const at = yield* now;
    const id = (yield* Random).identifier();
    return yield* transaction(
      Effect.gen(function* () {
        const user = Option.getOrElse(yield* (yield* Users).findById(caller.user.id), () => caller.user);
        const needsApproval = physician === null;
        // Onboarding says whether this is the first baby; the account machine alone moves the status.
        const first = onboardingCan(factsOf(user), { type: "FIRST_BABY_REGISTERED", needsApproval });
        if (!first && awaitsApproval(user)) return yield* new Forbidden({ message: ACCESS_MESSAGES.waitingApproval, status: user.status });
        if (!first && !isActive(user)) return yield* new Forbidden({ message: ACCESS_MESSAGES.notActive, status: user.status });
        const baby = babyFromRequest(request, { id, parent: user, physician, at });
        yield* (yield* Babies).insert(baby);
        const status = first ? (yield* changeStatus(user.id, { type: "FIRST_BABY_REGISTERED", needsApproval }, user.id)).status : user.status;
        yield* audit({ action: "baby.registered", actorId: user.id, subjectId: baby.id, details: { first, physician: physician?.id ?? null } });
        const message = awaitsApproval({ status }) ? MESSAGES.waitingApproval : first ? MESSAGES.babyRegistered : MESSAGES.childAdded;
        // The step the portal routes by next (api-contract.md's fields unchanged; `step` is added).
        const next = onboardingStep(factsOf({ ...user, status }));
        return { message, results: { parent_status: status, step: next, baby: presentBaby(baby, physician) } };
      }),
    );
  });

/** Another child of an Active parent (a parent still at the first baby registers it instead). */
export const addBaby = (input: unknown) =>
  Effect.gen(function* () {
    const { user } = yield* CurrentUser;
    if (!(user.type === "parent" && needsBabyDetails(onboardingStep(factsOf(user))))) yield* requireActive("parent");
    const { results } = yield* registerBaby(input);
    // `/user/add-baby` answers "child added", even for a first baby, unless the account now waits for approval.
    return { message: awaitsApproval({ status: results.parent_status }) ? MESSAGES.waitingApproval : MESSAGES.childAdded, results };
  });
