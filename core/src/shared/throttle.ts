import { Effect, Option } from "effect";
import { RateLimited } from "./errors.ts";
import { now, RateLimiter, RequestContext } from "./ports.ts";

/** How many attempts a bucket takes within its window. */
export interface RateRule {
  readonly limit: number;
  readonly windowSeconds: number;
}

/** The caller's address for per-address buckets: "local" outside an HTTP request (CLI, worker). */
export const clientAddress: Effect.Effect<string> = Effect.map(Effect.serviceOption(RequestContext), (r) =>
  Option.isSome(r) ? r.value.ip ?? "unknown" : "local",
);

/**
 * Counts one attempt against the bucket `key`; fails with 429 and `message` (and when to retry) once
 * the bucket is full. Buckets live behind the RateLimiter port, so every process shares them.
 */
export const throttle = (key: string, rule: RateRule, message: string): Effect.Effect<void, RateLimited, RateLimiter> =>
  Effect.gen(function* () {
    const verdict = yield* (yield* RateLimiter).hit(key, rule.limit, rule.windowSeconds, yield* now);
    if (!verdict.allowed) return yield* new RateLimited({ message, retryAfterSeconds: verdict.retryAfterSeconds });
  });
