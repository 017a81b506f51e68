import { Clock, Duration, Effect } from "effect";

/** The test world's time: it moves only when a test says so. */

export interface ControllableClock {
  readonly clock: Clock.Clock;
  /** Current time in epoch milliseconds. */
  readonly millis: () => number;
  readonly now: () => Date;
  readonly set: (at: Date | number) => void;
  readonly advance: (seconds: number) => void;
  readonly advanceMillis: (millis: number) => void;
}

export const DEFAULT_START = new Date("2026-01-05T09:00:00.000Z");

/** A clock that only moves when told to; `Effect.sleep` moves it by the slept duration at once. */
export const makeControllableClock = (start: Date | number = DEFAULT_START): ControllableClock => {
  let current = typeof start === "number" ? start : start.getTime();
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => current,
    currentTimeMillis: Effect.sync(() => current),
    unsafeCurrentTimeNanos: () => BigInt(current) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(current) * 1_000_000n),
    sleep: (duration) =>
      Effect.sync(() => {
        current += Duration.toMillis(duration);
      }),
  };
  return {
    clock,
    millis: () => current,
    now: () => new Date(current),
    set: (at) => {
      current = typeof at === "number" ? at : at.getTime();
    },
    advance: (seconds) => {
      current += seconds * 1000;
    },
    advanceMillis: (millis) => {
      current += millis;
    },
  };
};
