import { Effect, Option } from "effect";
import { type Caller, type User, Users } from "../accounts/model.ts";
import { isBlocked } from "../accounts/lifecycle.ts";
import { ACCESS_MESSAGES, baaPending, requireActive } from "../accounts/access.ts";
import { type Delegation, Delegations } from "../accounts/delegations.ts";
import { practiceVerified, requireVerifiedPractice } from "../accounts/practice-verification.ts";
import { BAA_REQUIRED_STATUS } from "../accounts/practice-statuses.ts";
import { Forbidden, NotFound, ValidationFailed } from "../shared/errors.ts";

/** Which physician a practice call acts for: checked on every call, so none runs unchecked. */

export interface ActingFor {
  readonly caller: Caller;
  /** The physician whose practice data the call reads or changes. */
  readonly physician: User;
  /** The staff member's delegation; null when the physician calls for themself. */
  readonly delegation: Delegation | null;
}

export const namedPhysician = (request: { physician_identifier?: string | undefined | null; physician_id?: string | undefined | null }) =>
  request.physician_identifier || request.physician_id || null;

/**
 * The physician a practice call acts for. A physician acts for themself (naming another answers
 * 404); a staff member must name a physician and hold a live delegation from them, checked on
 * every call, so a removed staff member loses access at once. Someone else's physician is 404.
 * A practice still being verified reaches no patient data (403 naming PracticeBeingVerified; ADR 25).
 */
export const actingPhysician = (request: { physician_identifier?: string | undefined | null; physician_id?: string | undefined | null }) =>
  Effect.gen(function* () {
    const caller = yield* requireActive("physician", "physician_staff");
    const named = namedPhysician(request);
    if (caller.user.type === "physician") {
      if (named !== null && named !== caller.user.id) return yield* NotFound.of("Physician");
      yield* requireVerifiedPractice(caller.user);
      return { caller, physician: caller.user, delegation: null } satisfies ActingFor;
    }
    if (named === null) return yield* ValidationFailed.field("physician_identifier", ACCESS_MESSAGES.physicianRequired);
    const delegation = yield* (yield* Delegations).findActive(named, caller.user.id);
    if (Option.isNone(delegation)) return yield* NotFound.of("Physician");
    const physician = yield* (yield* Users).findById(named);
    if (Option.isNone(physician) || !practiceVerified(physician.value) || isBlocked(physician.value)) {
      return yield* NotFound.of("Physician");
    }
    if (baaPending(physician.value)) return yield* new Forbidden({ message: ACCESS_MESSAGES.practiceBaaRequired, status: BAA_REQUIRED_STATUS });
    return { caller, physician: physician.value, delegation: delegation.value } satisfies ActingFor;
  });
