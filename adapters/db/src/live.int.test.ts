import { LiveEvents, transaction, Users } from "@crown/core";
import { Data, Effect, Layer } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeLiveHub, makeLiveLayer, type LiveHub, pgliteNotificationSource, postgresNotificationSource } from "./live.ts";
import { aUser } from "./testing-fixtures.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "./testing.ts";

class Boom extends Data.TaggedError("Boom")<{}> {}

const waitFor = async (check: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.each(await databaseKinds())("live events on %s", (kind) => {
  let t: TestDatabase;
  let hub: LiveHub;
  let layer: Layer.Layer<any>;
  const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.runPromise(Effect.provide(effect, layer) as Effect.Effect<A, E, never>);

  beforeAll(async () => {
    t = await createTestDatabase(kind);
    hub = makeLiveHub(kind === "pglite" ? pgliteNotificationSource(t.pglite!) : postgresNotificationSource(t.url!));
    await hub.start();
    layer = Layer.merge(t.layer, makeLiveLayer(t.db, hub));
  });
  afterAll(async () => {
    await hub?.stop();
    await t?.drop();
  });

  const newUser = async () => {
    const user = aUser();
    await run(Effect.flatMap(Users, (u) => u.insert(user)));
    return user;
  };
  const append = (userId: string, n: number) => Effect.flatMap(LiveEvents, (l) => l.append(userId, "chat.unread", { count: n }, new Date()));

  it("numbers a user's events 1, 2, 3 … and wakes listeners only when the transaction commits", async () => {
    const user = await newUser();
    let wakes = 0;
    const unsubscribe = await Effect.runPromise(hub.feed.subscribe(user.id, "s1", { wake: () => wakes++, ended: () => undefined }));
    await run(
      transaction(
        Effect.gen(function* () {
          yield* append(user.id, 1);
          yield* append(user.id, 2);
          yield* Effect.promise(() => new Promise((r) => setTimeout(r, 100)));
          // Nothing is heard while the transaction is open.
          expect(wakes).toBe(0);
        }),
      ),
    );
    await waitFor(() => wakes > 0);
    const events = await run(Effect.flatMap(LiveEvents, (l) => l.after(user.id, 0, 10)));
    expect(events.map((e) => [e.id, e.data.count])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(await run(Effect.flatMap(LiveEvents, (l) => l.latestId(user.id)))).toBe(2);
    expect(await run(Effect.flatMap(LiveEvents, (l) => l.after(user.id, 1, 10)))).toHaveLength(1);
    unsubscribe();
  });

  it("forgets the events of a rolled-back transaction, and their ids", async () => {
    const user = await newUser();
    let wakes = 0;
    const unsubscribe = await Effect.runPromise(hub.feed.subscribe(user.id, "s2", { wake: () => wakes++, ended: () => undefined }));
    const exit = await Effect.runPromiseExit(
      Effect.provide(transaction(Effect.zipRight(append(user.id, 1), Effect.fail(new Boom()))), layer) as Effect.Effect<void, Boom, never>,
    );
    expect(exit._tag).toBe("Failure");
    await new Promise((r) => setTimeout(r, 200));
    expect(wakes).toBe(0);
    expect(await run(Effect.flatMap(LiveEvents, (l) => l.latestId(user.id)))).toBe(0);
    await run(append(user.id, 7));
    await waitFor(() => wakes > 0);
    expect((await run(Effect.flatMap(LiveEvents, (l) => l.after(user.id, 0, 10)))).map((e) => e.id)).toEqual([1]);
    unsubscribe();
  });

  it("gives concurrent transactions consecutive ids, none skipped or repeated", async () => {
    const user = await newUser();
    await Promise.all(Array.from({ length: 12 }, (_, i) => run(transaction(append(user.id, i)))));
    const events = await run(Effect.flatMap(LiveEvents, (l) => l.after(user.id, 0, 100)));
    expect(events.map((e) => e.id)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(new Set(events.map((e) => e.data.count)).size).toBe(12);
  });

  it("tells the streams of a session that it ended", async () => {
    const user = await newUser();
    let ended = 0;
    const unsubscribe = await Effect.runPromise(hub.feed.subscribe(user.id, "session-x", { wake: () => undefined, ended: () => ended++ }));
    await run(Effect.flatMap(LiveEvents, (l) => l.sessionEnded("session-y")));
    await run(Effect.flatMap(LiveEvents, (l) => l.sessionEnded("session-x")));
    await waitFor(() => ended > 0);
    expect(ended).toBe(1);
    unsubscribe();
  });
});
