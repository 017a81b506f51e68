import { Effect } from "effect";
import { AccountsConfig, newUser, OneTimeTokens, type User, Users } from "../accounts/model.ts";
import { awaitsEmailVerification } from "../accounts/lifecycle.ts";
import { audit, now, PasswordHasher, Random, requestLanguage, Secrets } from "../shared/ports.ts";
import { throttle } from "../shared/throttle.ts";
import { INVITATION_LIMIT_MESSAGE, INVITATIONS_PER_PRACTICE, invitationBucket } from "./policy.ts";

/**
 * Creates an invited account (EmailVerificationRequired, an unusable random password) and a
 * one-time invitation token; answers the set-password link. Setting the password through
 * POST /user/password/reset consumes the token, verifies the e-mail and activates the account.
 */
export const inviteAccount = (fields: { email: string; type: "parent" | "physician_staff"; firstName: string; lastName: string; phone: string | null }) =>
  Effect.gen(function* () {
    const random = yield* Random;
    const config = yield* AccountsConfig;
    const at = yield* now;
    const passwordHash = yield* (yield* PasswordHasher).hash(random.secret(32));
    // The invitee's first language is the inviting call's; they can change it once signed in (ADR 77).
    const language = yield* requestLanguage;
    const user = newUser({ id: random.identifier(), email: fields.email, passwordHash, type: fields.type, firstName: fields.firstName, lastName: fields.lastName, phone: fields.phone, at, language });
    yield* (yield* Users).insert(user);
    const url = yield* invitationLink(user);
    yield* audit({ action: "account.invited", actorId: null, subjectId: user.id, details: { type: fields.type } });
    return { user, url, ttlDays: invitationDays(config.invitationTtlSeconds) };
  });

export const invitationDays = (ttlSeconds: number) => Math.round(ttlSeconds / 86400);

/** A fresh invitation link for a user who has not accepted yet (older links stop working). */
export const invitationLink = (user: User) =>
  Effect.gen(function* () {
    const random = yield* Random;
    const secrets = yield* Secrets;
    const config = yield* AccountsConfig;
    const tokens = yield* OneTimeTokens;
    const at = yield* now;
    const token = random.secret(32);
    yield* tokens.retireAll(user.id, "invitation", at);
    yield* tokens.insert({
      id: random.identifier(),
      userId: user.id,
      purpose: "invitation",
      digest: secrets.digest(token),
      expiresAt: new Date(at.getTime() + config.invitationTtlSeconds * 1000),
      consumedAt: null,
      createdAt: at,
    });
    return `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}&invite=1`;
  });

export const isPendingInvitation = (user: User) => user.emailVerifiedAt === null && awaitsEmailVerification(user);

/**
 * The work an invitation costs (hashing its random password), done when an add finds an account
 * instead, so the answer's timing tells no more than its body whether the address has one (ADR 22, 56).
 */
export const sameWorkAsAnInvitation = Effect.gen(function* () {
  yield* (yield* PasswordHasher).hash((yield* Random).secret(32));
});

/** Counts one invitation e-mail against the practice's daily limit: 429 with Retry-After when spent. */
export const throttleInvitations = (physicianId: string) => throttle(invitationBucket(physicianId), INVITATIONS_PER_PRACTICE, INVITATION_LIMIT_MESSAGE);

/** Where a request's e-mail and notification lead: the portal's page of requests awaiting an answer. */
export const linkRequestsUrl = (publicUrl: string) => `${publicUrl}/link-requests`;
