import { RateLimiter, type RateLimitVerdict } from "@crown/core";
import { Effect } from "effect";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "./testing.ts";

/** The fixed-window rule, in memory: what the database's one-statement upsert must agree with. */
const referenceLimiter = (limit: number, windowSeconds: number) => {
  let bucket: { windowStart: number; count: number } | null = null;
  return (now: number): RateLimitVerdict => {
    bucket = bucket === null || bucket.windowStart <= now - windowSeconds * 1000 ? { windowStart: now, count: 1 } : { ...bucket, count: bucket.count + 1 };
    const allowed = bucket.count <= limit;
    return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((bucket.windowStart + windowSeconds * 1000 - now) / 1000)) };
  };
};

describe.each(await databaseKinds())("RateLimiter against its reference model on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.drop());

  it("gives the verdicts of the fixed-window rule for any sequence of hits", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 120 }),
        fc.array(fc.integer({ min: 0, max: 90_000 }), { minLength: 1, maxLength: 25 }),
        async (limit, windowSeconds, gapsMs) => {
          const key = `model-${++run}`;
          const reference = referenceLimiter(limit, windowSeconds);
          let now = Date.parse("2026-11-22T06:00:00.000Z");
          const expected: RateLimitVerdict[] = [];
          const times: Date[] = [];
          for (const gap of gapsMs) {
            now += gap;
            times.push(new Date(now));
            expected.push(reference(now));
          }
          const actual = await Effect.runPromise(
            Effect.provide(
              Effect.flatMap(RateLimiter, (limiter) => Effect.forEach(times, (at) => limiter.hit(key, limit, windowSeconds, at))),
              t.layer,
            ),
          );
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("peek shows the window as it stands without counting a hit, and nothing once it has passed", async () => {
    const at = new Date("2026-11-22T07:00:00.000Z");
    const later = (seconds: number) => new Date(at.getTime() + seconds * 1000);
    const seen = await Effect.runPromise(
      Effect.provide(
        Effect.gen(function* () {
          const limiter = yield* RateLimiter;
          const none = yield* limiter.peek("peek-key", 60, at);
          yield* limiter.hit("peek-key", 10, 60, at);
          yield* limiter.hit("peek-key", 10, 60, later(5));
          const twice = yield* limiter.peek("peek-key", 60, later(10));
          const again = yield* limiter.peek("peek-key", 60, later(10));
          const passed = yield* limiter.peek("peek-key", 60, later(60));
          return { none, twice, again, passed };
        }),
        t.layer,
      ),
    );
    expect(seen.none).toEqual({ count: 0, windowStart: null });
    expect(seen.twice).toEqual({ count: 2, windowStart: at });
    expect(seen.again).toEqual(seen.twice);
    expect(seen.passed).toEqual({ count: 0, windowStart: null });
  });
});
