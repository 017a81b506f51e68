import { createMiddleware } from "hono/factory";
import { Accounts } from "@crown/core";
import { runUseCase } from "./effect-bridge.ts";
import type { Env } from "./env.ts";
import { bearerToken } from "./request.ts";

/** Every call behind this needs a live session: the caller is resolved once and given to the use case. */
export const requireCaller = createMiddleware<Env>(async (c, next) => {
  const caller = await runUseCase(c, Accounts.authenticate(bearerToken(c)));
  await runUseCase(c, Accounts.admitCaller(caller, { duringSetup: false }));
  c.set("caller", caller);
  await next();
});

/**
 * The calls a session may make before its required second factor is set up (issue 44): the profile,
 * language, the BAA and onboarding state, proving again, the second factor's own calls, signing out.
 * No patient is read behind this; every other signed-in call is behind `requireCaller`.
 */
export const requireCallerDuringSetup = createMiddleware<Env>(async (c, next) => {
  const caller = await runUseCase(c, Accounts.authenticate(bearerToken(c)));
  c.set("caller", caller);
  await next();
});
