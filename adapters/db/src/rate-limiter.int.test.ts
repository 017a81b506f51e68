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
});
