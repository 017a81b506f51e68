import { Effect, Exit, Layer } from "effect";
import { Transactor } from "../shared/ports.ts";

/**
 * A Transactor over the world's own that gives these in-memory tables a database's rollback: a
 * failed transaction restores every map, and cuts every append-only list back to its length.
 */
export const rollbackOnFailure = (maps: ReadonlyArray<Map<any, any>>, appendOnly: ReadonlyArray<unknown[]>) => {
  const snapshot = () => ({ maps: maps.map((m) => new Map(m)), lengths: appendOnly.map((a) => a.length) });
  const restore = (s: ReturnType<typeof snapshot>) => {
    maps.forEach((target, i) => {
      target.clear();
      for (const [k, v] of s.maps[i]!) target.set(k, v);
    });
    appendOnly.forEach((list, i) => (list.length = s.lengths[i]!));
  };
  return Layer.effect(
    Transactor,
    Effect.map(Transactor, (inner) => ({
      run: <A, E, R>(self: Effect.Effect<A, E, R>) =>
        Effect.suspend(() => {
          const before = snapshot();
          return Effect.onExit(inner.run(self), (exit) => Effect.sync(() => (Exit.isFailure(exit) ? restore(before) : undefined)));
        }),
    })),
  );
};
