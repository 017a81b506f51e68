import { Context, Effect, Option } from "effect";
import { transaction } from "./ports.ts";

/**
 * Calls a client may retry safely (ADR 0141). A client that lost its connection before the answer cannot
 * tell whether the server acted; it sends the call again with the same `Idempotency-Key`. The first call
 * records its answer under (caller, operation, key) in the same transaction as its writes, so a retry
 * answers what the first one did and writes nothing; a retry that arrives while the first is still
 * running waits on the key's row and then reads its answer.
 */
export interface IdempotencyKeysPort {
  /**
   * Takes the key for this call (inside the open transaction): `none` when it is new (the call goes on and
   * must `remember` its answer), or the answer the first call recorded.
   */
  readonly claim: (userId: string, operation: string, key: string) => Effect.Effect<Option.Option<unknown>>;
  readonly remember: (userId: string, operation: string, key: string, answer: unknown) => Effect.Effect<void>;
}
export class IdempotencyKeys extends Context.Tag("crown/IdempotencyKeys")<IdempotencyKeys, IdempotencyKeysPort>() {}

/** Keys are printable ASCII, at most this long (Stripe's and the IETF draft's practice). */
export const IDEMPOTENCY_KEY_MAX = 255;
/** How long a key is remembered: a retry comes within seconds or minutes; a day covers a device that was offline. */
export const IDEMPOTENCY_KEY_HOURS = 24;

/** A usable key, or null (absent, empty, too long or not printable ASCII: the call then runs as a new one). */
export const idempotencyKeyOf = (header: string | null | undefined): string | null => {
  const key = header?.trim() ?? "";
  return key.length > 0 && key.length <= IDEMPOTENCY_KEY_MAX && /^[\x21-\x7e]+$/.test(key) ? key : null;
};

/**
 * Runs `call` once per (caller, operation, key): with a key, in one transaction with its recorded answer;
 * without one, as it is. `call`'s own transactions join this one.
 */
export const once = <A, E, R>(key: string | null, userId: string, operation: string, call: Effect.Effect<A, E, R>) =>
  key === null
    ? call
    : transaction(
        Effect.gen(function* () {
          const keys = yield* IdempotencyKeys;
          const prior = yield* keys.claim(userId, operation, key);
          if (Option.isSome(prior)) return prior.value as A;
          const answer = yield* call;
          yield* keys.remember(userId, operation, key, answer);
          return answer;
        }),
      );
