/*
 * Type-level tests, checked by `pnpm typecheck` (tsc fails when an expected error disappears): a use
 * case's ports must be provided, at both ends of the bridge.
 */
import { Context, Effect, Layer, ManagedRuntime } from "effect";
import type { Context as HonoContext } from "hono";
import { CurrentUser, Users } from "@crown/core";
import { createHttpApp } from "./app.ts";
import { type HttpRuntime, runUseCase } from "./effect-bridge.ts";
import type { Env } from "./env.ts";

/** A port that no composition provides. */
class Unprovided extends Context.Tag("test/Unprovided")<Unprovided, { readonly ping: Effect.Effect<number> }>() {}

declare const c: HonoContext<Env>;

// A use case needing listed ports (and the caller, provided per request) runs.
export const listed = () => runUseCase(c, Effect.zip(Effect.flatMap(Users, (u) => u.findById("id")), CurrentUser));

// @ts-expect-error a use case needing a port the runtime does not provide does not compile
export const unprovided = () => runUseCase(c, Effect.flatMap(Unprovided, (p) => p.ping));

const options = { clientIp: () => null, publicUrl: "http://crown.test" };

// The composition root's runtime must provide every port the routes may need.
export const complete = (runtime: HttpRuntime) => createHttpApp({ ...options, runtime });

// @ts-expect-error a runtime missing ports (here: all of them) is refused
export const incomplete = () => createHttpApp({ ...options, runtime: ManagedRuntime.make(Layer.empty) });
