import { Effect } from "effect";
import { CurrentUser, type User } from "./model.ts";
import { awaitsApproval, isActive, type UserType } from "./lifecycle.ts";
import { Forbidden } from "../shared/errors.ts";
import { BAA_REQUIRED_STATUS } from "./practice-statuses.ts";

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

export const displayName = (user: Pick<User, "firstName" | "lastName">) => `${user.firstName} ${user.lastName}`.trim();
export const physicianName = (user: Pick<User, "firstName" | "lastName">) => `Dr. ${displayName(user)}`;
