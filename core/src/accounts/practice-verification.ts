import { Effect } from "effect";
import type { User } from "./model.ts";
import { Forbidden } from "../shared/errors.ts";
import { PRACTICE_BEING_VERIFIED, PRACTICE_BEING_VERIFIED_MESSAGE, type PracticeVerification } from "./practice-statuses.ts";

/**
 * A physician's practice as it is now (issue 15, ADR 25): a self-signed-up physician's practice is
 * "being verified" until an admin verifies it. Meanwhile the physician may sign in, sign the BAA and
 * see their dashboard, but appears in no provider search, reaches no patient and invites nobody.
 * Physicians created by an operator (CLI, demo) are verified when created.
 */

export const PRACTICE_MESSAGES = {
  beingVerified: PRACTICE_BEING_VERIFIED_MESSAGE,
  awaiting: "Practices awaiting verification fetched successfully",
  verified: "Practice verified successfully",
  alreadyVerified: "This practice is already verified.",
  notPhysician: "Only a physician's practice is verified.",
} as const;

export const practiceVerification = (user: Pick<User, "practiceVerifiedAt">): PracticeVerification =>
  user.practiceVerifiedAt === null ? "being_verified" : "verified";

/** Whether `user` is a physician whose practice may reach patients, appear in search and invite. */
export const practiceVerified = (user: Pick<User, "type" | "practiceVerifiedAt">) => user.type === "physician" && practiceVerification(user) === "verified";

/** 403 naming the status while the physician's own practice is being verified. */
export const requireVerifiedPractice = (physician: User) =>
  practiceVerified(physician) ? Effect.void : Effect.fail(new Forbidden({ message: PRACTICE_MESSAGES.beingVerified, status: PRACTICE_BEING_VERIFIED }));
