import type { Context } from "hono";
import type { User } from "@crown/core";
import type { Env } from "./env.ts";

/**
 * What the sign-in and profile answers carry besides the account itself (babies, onboarding
 * flags). Composed by the app so that the accounts routes do not depend on other features.
 */
export interface SessionPresenter {
  readonly signIn: (c: Context<Env>, user: User, token: string) => Promise<Record<string, unknown>>;
  readonly profile: (c: Context<Env>, user: User, base: Record<string, unknown>) => Promise<Record<string, unknown>>;
}
