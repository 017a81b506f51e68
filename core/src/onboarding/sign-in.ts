import { Effect } from "effect";
import { CurrentUser, type User } from "../accounts/model.ts";
import { profileOf } from "../accounts/present.ts";
import { readProfile as readAccountProfile } from "../accounts/profile.ts";
import { signIn as openAccountSession, signInWithPasskey as openPasskeySession } from "../accounts/sign-in.ts";
import { profileAnswer, signInAnswer } from "./session-answers.ts";

/*
 * Signing in as the portal and the apps see it (ADR 0145): one use case answers the session and where
 * the user goes next. Accounts checks the password, the throttles and the account's status and opens the
 * session; the answer adds what onboarding knows (the step, the flags, the babies, the physicians).
 */

/** A session just opened, answered with where the user goes next (the same for every way of signing in). */
const answered = <E, R>(opened: Effect.Effect<{ token: string; user: User; expiresAt: Date }, E, R>) =>
  Effect.gen(function* () {
    const { token, user, expiresAt } = yield* opened;
    const answer = yield* signInAnswer(user, token);
    return { ...answer, expires_at: expiresAt.toISOString() };
  });

/** `POST /user/sign-in`: the session token, its absolute end (ADR 32), the account and its next step. */
export const signIn = (input: unknown) => answered(openAccountSession(input));

/** `POST /user/sign-in/passkey`: a passkey alone (both factors, issue 44); the same answer as a sign-in. */
export const signInWithPasskey = (input: unknown) => answered(openPasskeySession(input));

/** `GET /user/profile`: the caller's profile (the read is audited) with its next step. */
export const readProfile = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  return yield* profileAnswer(user, yield* readAccountProfile);
});

/** The profile answer after a change to the account (`POST /user/profile`, the photo). */
export const profileAfter = <E, R>(changed: Effect.Effect<User, E, R>) => Effect.flatMap(changed, (user) => profileAnswer(user, profileOf(user)));
