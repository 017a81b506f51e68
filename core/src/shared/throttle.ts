import { Effect, Option } from "effect";
import { RateLimited } from "./errors.ts";
import { TOO_MANY_ATTEMPTS } from "./messages.ts";
import { now, RateLimiter, RequestContext } from "./ports.ts";

/** A fixed-window rate limit: at most `limit` hits per `windowSeconds`. */
export interface RateRule {
  readonly limit: number;
  readonly windowSeconds: number;
}

export { TOO_MANY_ATTEMPTS };

/** The caller's address for per-address limits: "local" outside a request (CLI, jobs), "unknown" when the adapter saw none. */
export const clientAddress: Effect.Effect<string> = Effect.map(Effect.serviceOption(RequestContext), (r) =>
  Option.isSome(r) ? r.value.ip ?? "unknown" : "local",
);

/** Counts one attempt against a bucket shared by every server process; fails with 429 (and Retry-After) when it is full. */
export const throttle = (key: string, rule: RateRule, message: string = TOO_MANY_ATTEMPTS) =>
  Effect.gen(function* () {
    const verdict = yield* (yield* RateLimiter).hit(key, rule.limit, rule.windowSeconds, yield* now);
    if (!verdict.allowed) return yield* new RateLimited({ message, retryAfterSeconds: verdict.retryAfterSeconds });
  });
