import { Effect } from "effect";
import { RateLimited } from "../shared/errors.ts";
import { now, RateLimiter } from "../shared/ports.ts";

/**
 * Failed sign-ins slow the next attempt down instead of locking the account (ADR 22): the delay
 * doubles with every failure past the free ones, counted per account and address (one guesser)
 * and per account (guessers spread over many addresses, with more free attempts). The counters
 * belong to the current password: a reset through the e-mailed link starts them afresh, so the
 * owner always has a way in.
 */
export const SIGN_IN_THROTTLE = {
  windowSeconds: 15 * 60,
  freePerAccountAndAddress: 5,
  freePerAccount: 20,
  firstDelaySeconds: 2,
  maxDelaySeconds: 15 * 60,
} as const;

/** Seconds to wait before the next attempt after `failures` failures, with `free` of them free. */
export const delayAfter = (failures: number, free: number) =>
  failures < free ? 0 : Math.min(SIGN_IN_THROTTLE.maxDelaySeconds, SIGN_IN_THROTTLE.firstDelaySeconds * 2 ** (failures - free));

/** What the failures count against: one account's current password ... */
export const passwordSubject = (email: string, passwordEpoch: number) => `${email}:${passwordEpoch}`;
/**
 * ... or its second step (issue 44): wrong codes slow the next one down just as wrong passwords do,
 * counted per account whatever the password, so a new password (a reset) gives a guesser no new tries.
 */
export const secondStepSubject = (userId: string) => `second-step:${userId}`;

/** The counters of one subject, as seen from one address. */
const scopes = (subject: string, address: string) => {
  const account = `sign-in:fail:${subject}`;
  return [
    { key: `${account}|${address}`, free: SIGN_IN_THROTTLE.freePerAccountAndAddress },
    { key: account, free: SIGN_IN_THROTTLE.freePerAccount },
  ];
};
// The time of the latest failure: a bucket restarted at each failure.
const lastKey = (key: string) => `${key}:last`;

/** Fails with 429 (and how long to wait) while a delay earned by earlier failures runs. */
export const awaitSignInTurn = (subject: string, address: string, message: string) =>
  Effect.gen(function* () {
    const limiter = yield* RateLimiter;
    const at = yield* now;
    const { windowSeconds } = SIGN_IN_THROTTLE;
    let wait = 0;
    for (const scope of scopes(subject, address)) {
      const { count } = yield* limiter.peek(scope.key, windowSeconds, at);
      const delay = delayAfter(count, scope.free);
      if (delay === 0) continue;
      const last = (yield* limiter.peek(lastKey(scope.key), windowSeconds, at)).windowStart;
      if (last !== null) wait = Math.max(wait, last.getTime() + delay * 1000 - at.getTime());
    }
    if (wait > 0) return yield* new RateLimited({ message, retryAfterSeconds: Math.ceil(wait / 1000) });
  });

/** Counts a failed attempt in every scope. */
export const recordSignInFailure = (subject: string, address: string) =>
  Effect.gen(function* () {
    const limiter = yield* RateLimiter;
    const at = yield* now;
    for (const scope of scopes(subject, address)) {
      yield* limiter.hit(scope.key, Number.MAX_SAFE_INTEGER, SIGN_IN_THROTTLE.windowSeconds, at);
      yield* limiter.reset(lastKey(scope.key));
      yield* limiter.hit(lastKey(scope.key), Number.MAX_SAFE_INTEGER, SIGN_IN_THROTTLE.windowSeconds, at);
    }
  });

/** The right password: this address starts afresh, and so does the account. */
export const clearSignInFailures = (subject: string, address: string) =>
  Effect.gen(function* () {
    const limiter = yield* RateLimiter;
    yield* limiter.reset(...scopes(subject, address).flatMap((scope) => [scope.key, lastKey(scope.key)]));
  });
