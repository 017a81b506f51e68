import type { Effect } from "effect";

/**
 * Runs an effect whose requirements are among `R`. The composition's `services.run` is one for every
 * port it provides; a background loop asks for exactly the ports its use cases need, so passing a
 * runner that lacks one is a compile error (like `runUseCase` for the routes).
 */
export type Runner<R> = <A, E>(effect: Effect.Effect<A, E, R>) => Promise<A>;

/** The requirements of a use case (an effect, or a function answering one). */
export type PortsOf<T> = T extends Effect.Effect<unknown, unknown, infer R> ? R : T extends (...args: never[]) => Effect.Effect<unknown, unknown, infer R> ? R : never;
