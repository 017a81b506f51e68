import { Effect, Option } from "effect";
import { type Caller, CurrentUser, type User, Users } from "../accounts/model.ts";
import { awaitsApproval, isActive, isBlocked, type UserType } from "../accounts/lifecycle.ts";
import { Forbidden, NotFound, ValidationFailed } from "../shared/errors.ts";
import { type Delegation, Delegations } from "./model.ts";
import { practiceVerified, requireVerifiedPractice } from "./verification.ts";
import { BAA_REQUIRED_STATUS } from "./statuses.ts";

/** The 403 `status` a client reads to send an unsigned physician to the agreement. */
export { BAA_REQUIRED_STATUS };

/** Who may do what: every practice use case starts here, so none runs unchecked. */

export const ACCESS_MESSAGES = {
  notAllowed: "You are not allowed to perform this action.",
  waitingApproval: "Your data is saved. But your account needs approval before proceeding further!",
  notActive: "Your account is not active yet.",
  physicianRequired: "Please select the physician you act for.",
  baaRequired: "Please sign the Business Associate Agreement before using Crown.",
  practiceBaaRequired: "Your physician has not signed the Business Associate Agreement yet.",
} as const;

/** A physician sees no patient data and acts on nothing until the practice's BAA is signed. */
export const baaPending = (user: Pick<User, "type" | "baaSignedAt">) => user.type === "physician" && user.baaSignedAt === null;

/** The caller, who must hold an Active account of one of `types` (403 otherwise, naming the status). */
export const requireActive = (...types: ReadonlyArray<UserType>) =>
  Effect.gen(function* () {
    const caller = yield* CurrentUser;
    if (!types.includes(caller.user.type)) return yield* new Forbidden({ message: ACCESS_MESSAGES.notAllowed });
    if (awaitsApproval(caller.user)) return yield* new Forbidden({ message: ACCESS_MESSAGES.waitingApproval, status: caller.user.status });
    if (!isActive(caller.user)) return yield* new Forbidden({ message: ACCESS_MESSAGES.notActive, status: caller.user.status });
    if (baaPending(caller.user)) return yield* new Forbidden({ message: ACCESS_MESSAGES.baaRequired, status: BAA_REQUIRED_STATUS });
    return caller;
  });

/** The caller must be of one of `types`, whatever its status (onboarding steps before Active). */
export const requireType = (...types: ReadonlyArray<UserType>) =>
  Effect.gen(function* () {
    const caller = yield* CurrentUser;
    if (!types.includes(caller.user.type)) return yield* new Forbidden({ message: ACCESS_MESSAGES.notAllowed });
    return caller;
  });

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

export const displayName = (user: Pick<User, "firstName" | "lastName">) => `${user.firstName} ${user.lastName}`.trim();
export const physicianName = (user: Pick<User, "firstName" | "lastName">) => `Dr. ${displayName(user)}`;
