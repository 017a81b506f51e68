import { Effect } from "effect";
import type { User } from "../accounts/model.ts";
import type { profileOf } from "../accounts/present.ts";
import { sessionExtras } from "./present.ts";

/*
 * The sign-in and profile answers: the account plus what the clients route on (core's onboarding
 * step and flags), the parent's babies and the staff member's physicians. Typed here so the web
 * takes their shapes from the wire (`AppType`) instead of copying them.
 */

type Extras = Effect.Effect.Success<ReturnType<typeof sessionExtras>>;

const onboardingPart = (user: User, { flags, babies, physicians }: Extras) => ({
  // Core's onboarding step: the portal routes by it rather than re-deriving it from the flags.
  step: flags.step,
  first_time_login: flags.first_time_login,
  is_quiz_time: flags.is_quiz_time,
  disclaimer_accepted: flags.disclaimer_accepted,
  baa_signed: flags.baa_signed,
  babies,
  ...(user.type === "physician_staff" ? { physicians } : {}),
});

/** `POST /user/sign-in`'s results, but the session's end (the route adds `expires_at`). */
export const signInAnswer = (user: User, token: string) =>
  Effect.map(sessionExtras(user), (extras) => {
    const part = onboardingPart(user, extras);
    return {
      token,
      ...part,
      type: user.type,
      status: user.status,
      email: user.email,
      identifier: user.id,
      first_name: user.firstName,
      last_name: user.lastName,
      // The specs' client also reads these names.
      isFirstLogin: part.first_time_login,
      isQuizTime: part.is_quiz_time,
      userType: user.type,
      userStatus: user.status,
      userEmail: user.email,
    };
  });

/** The account's profile as accounts presents it. */
export type AccountProfile = ReturnType<typeof profileOf>;

/** `GET|POST /user/profile`'s results: the profile with the onboarding part. */
export const profileAnswer = (user: User, profile: AccountProfile) => Effect.map(sessionExtras(user), (extras) => ({ ...profile, ...onboardingPart(user, extras) }));

export type SignInAnswer = Effect.Effect.Success<ReturnType<typeof signInAnswer>>;
export type ProfileAnswer = Effect.Effect.Success<ReturnType<typeof profileAnswer>>;
