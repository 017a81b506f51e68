import { Effect, Option } from "effect";
import { ACCESS_MESSAGES, requireType } from "../accounts/access.ts";
import { Forbidden, NotFound } from "../shared/errors.ts";
import { audit, now, transaction } from "../shared/ports.ts";
import { factsOf, onboardingOpen } from "./lifecycle.ts";
import { Babies, type BabyPatch } from "./model.ts";
import { blanksAsAbsent, orNull, resolvePhysician, today } from "./policy.ts";
import { presentBaby } from "./present.ts";
import { BabyUpdateRequest, validateForm } from "./schemas.ts";

/** update-baby and update-child: the parent edits one of their own babies (another's answers 404). */
export const updateBaby = (input: unknown) =>
  Effect.gen(function* () {
    const caller = yield* requireType("parent");
    if (!onboardingOpen(factsOf(caller.user))) {
      return yield* new Forbidden({ message: ACCESS_MESSAGES.notActive, status: caller.user.status });
    }
    const request = yield* validateForm(BabyUpdateRequest(yield* today), blanksAsAbsent(input));
    const babies = yield* Babies;
    const existing = yield* babies.findById(request.identifier);
    if (Option.isNone(existing) || existing.value.parentId !== caller.user.id) return yield* NotFound.of("Baby");
    const physician = yield* resolvePhysician(request.physician_identifier);
    const patch: BabyPatch = {
      physicianId: physician?.id ?? null,
      firstName: request.first_name,
      middleName: orNull(request.middle_name),
      lastName: request.last_name,
      dateOfBirth: request.date_of_birth,
      ...(request.relation ? { relation: request.relation } : {}),
      gender: orNull(request.gender),
      ethnicity: orNull(request.ethnicity),
      nicuTime: orNull(request.nicu_time),
      previousCondition: orNull(request.previous_condition),
      referralCode: orNull(request.referral_code),
      updatedAt: yield* now,
    };
    yield* transaction(
      Effect.gen(function* () {
        yield* babies.update(existing.value.id, patch);
        yield* audit({ action: "baby.updated", actorId: caller.user.id, subjectId: existing.value.id, details: { fields: Object.keys(patch) } });
      }),
    );
    return presentBaby({ ...existing.value, ...patch }, physician);
  });
