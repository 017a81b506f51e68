import type { Context } from "hono";
import type { User } from "@crown/core";
import type { AccountProfile, ProfileAnswer, SignInAnswer } from "@crown/core/onboarding/session-answers";
import type { Env } from "./env.ts";

/**
 * What the sign-in and profile answers carry besides the account itself (babies, onboarding
 * flags). Composed by the app so that the accounts routes do not depend on other features; typed
 * by core's answers, so the routes' `AppType` carries them to the clients.
 */
export interface SessionPresenter {
  readonly signIn: (c: Context<Env>, user: User, token: string) => Promise<SignInAnswer>;
  readonly profile: (c: Context<Env>, user: User, profile: AccountProfile) => Promise<ProfileAnswer>;
}
