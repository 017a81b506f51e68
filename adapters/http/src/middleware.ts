import { createMiddleware } from "hono/factory";
import { Accounts } from "@crown/core";
import { runUseCase } from "./effect-bridge.ts";
import type { Env } from "./env.ts";
import { bearerToken } from "./request.ts";

/** Every call behind this needs a live session: the caller is resolved once and given to the use case. */
export const requireCaller = createMiddleware<Env>(async (c, next) => {
  const caller = await runUseCase(c, Accounts.authenticate(bearerToken(c)));
  c.set("caller", caller);
  await next();
});
