import { Context, Effect, Exit, Option } from "effect";
import { BlobStore } from "./ports.ts";

/**
 * Blobs written before the one transaction that names them (an upload's files, a publish's PDF) are
 * *pending* until that transaction commits (ADR 0051). The writing process holds a lease it keeps
 * renewing; when it dies, its lease lapses and a sweep removes its pending blobs, on any store.
 */
export interface PendingBlobsPort {
  /** Marks `key` pending under this process's lease, committed at once (before a byte is written). */
  readonly hold: (key: string) => Effect.Effect<void>;
  /**
   * Inside the transaction that names them: they are kept. Dies when a sweep already took one
   * (this process's lease lapsed, so the blob may be gone): the transaction then rolls back.
   */
  readonly keep: (keys: ReadonlyArray<string>) => Effect.Effect<void>;
  /** Their writer removed them itself (a refusal, a failed write, a duplicate). */
  readonly release: (keys: ReadonlyArray<string>) => Effect.Effect<void>;
  /**
   * Inside the transaction that stops naming them (a replaced photo, an erased account): pending
   * again under this process's lease, committed with that change, so a crash before their removal
   * leaves them to the sweep.
   */
  readonly retire: (keys: ReadonlyArray<string>) => Effect.Effect<void>;
}
export class PendingBlobs extends Context.Tag("crown/PendingBlobs")<PendingBlobs, PendingBlobsPort>() {}

/** The ledger when the composition has one; core's in-memory tests run without (nothing can crash there). */
const ledger = Effect.serviceOption(PendingBlobs);

/** Writes a blob that no row names yet: held pending first, so a crash during or after the write leaves it to the sweep. */
export const putPending = (key: string, body: Uint8Array | ReadableStream<Uint8Array>, contentType: string) =>
  Effect.gen(function* () {
    const pending = yield* ledger;
    if (Option.isSome(pending)) yield* pending.value.hold(key);
    return yield* (yield* BlobStore).put(key, body, contentType);
  });

/** In the transaction that names the blobs: they stay. */
export const keepBlobs = (keys: ReadonlyArray<string>) =>
  Effect.flatMap(ledger, (pending) => (Option.isSome(pending) && keys.length > 0 ? pending.value.keep(keys) : Effect.void));

/**
 * In the transaction that stops naming the blobs: they become pending (ADR 0064). Call `discardBlobs`
 * once it has committed; a crash in between leaves them to the sweep.
 */
export const retireBlobs = (keys: ReadonlyArray<string>) =>
  Effect.flatMap(ledger, (pending) => (Option.isSome(pending) && keys.length > 0 ? pending.value.retire(keys) : Effect.void));

/**
 * Writes blobs no row names yet and then runs `naming`, the transaction that names them and keeps
 * them (`keepBlobs` inside it). Blobs written before a failure, in the writes or in `naming`, are
 * discarded; a crash leaves them to the sweep.
 */
export const putThenName = <A, E, R>(
  blobs: ReadonlyArray<{ key: string; body: Uint8Array; contentType: string }>,
  naming: Effect.Effect<A, E, R>,
) =>
  Effect.suspend(() => {
    const written: string[] = [];
    const writes = Effect.forEach(blobs, (blob) => Effect.zipRight(Effect.sync(() => written.push(blob.key)), putPending(blob.key, blob.body, blob.contentType)), { discard: true });
    // onExit, not tapErrorCause: an interrupted request (the client went away) discards too, rather
    // than leaving blobs pending under a lease that stays alive.
    return Effect.zipRight(writes, naming).pipe(Effect.onExit((exit) => (Exit.isFailure(exit) ? discardBlobs(written) : Effect.void)));
  });

/** Removes pending blobs their writer no longer wants, and forgets them. */
export const discardBlobs = (keys: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (keys.length === 0) return;
    const blobs = yield* BlobStore;
    yield* Effect.forEach(keys, (key) => blobs.remove(key), { discard: true });
    const pending = yield* ledger;
    if (Option.isSome(pending)) yield* pending.value.release(keys);
  });
