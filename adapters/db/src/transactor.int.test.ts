import { AuditLog, OneTimeTokens, RateLimiter, Sessions, Transactor, transaction, Users } from "@crown/core";
import { Data, Deferred, Effect, Exit, Fiber, Option } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executor } from "./executor.ts";
import { aToken, aUser, at } from "./testing-fixtures.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "./testing.ts";

class Boom extends Data.TaggedError("Boom")<{}> {}

type Services = Users | Sessions | OneTimeTokens | AuditLog | RateLimiter | Transactor;

describe.each(await databaseKinds())("Transactor on %s", (kind) => {
  let t: TestDatabase;
  const run = <A, E>(effect: Effect.Effect<A, E, Services>) => Effect.runPromise(Effect.provide(effect, t.layer));
  const runExit = <A, E>(effect: Effect.Effect<A, E, Services>) => Effect.runPromiseExit(Effect.provide(effect, t.layer));
  const exists = (id: string) => run(Effect.map(Effect.flatMap(Users, (users) => users.findById(id)), Option.isSome));
  const insert = (user: ReturnType<typeof aUser>) => Effect.flatMap(Users, (users) => users.insert(user));

  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.drop());

  it("commits everything on success", async () => {
    const user = aUser();
    const result = await run(
      transaction(
        Effect.gen(function* () {
          yield* insert(user);
          yield* (yield* Users).update(user.id, { firstName: "Grace" });
          // Reads inside the transaction see its own writes.
          return Option.getOrThrow(yield* (yield* Users).findById(user.id)).firstName;
        }),
      ),
    );
    expect(result).toBe("Grace");
    expect(await exists(user.id)).toBe(true);
  });

  it("rolls everything back on a failure, and passes the failure on", async () => {
    const user = aUser();
    const exit = await runExit(
      transaction(
        Effect.gen(function* () {
          yield* insert(user);
          yield* (yield* AuditLog).record({ action: "test.rolled_back", actorId: user.id, ip: null, at: new Date() });
          return yield* new Boom();
        }),
      ),
    );
    expect(exit).toEqual(Exit.fail(new Boom()));
    expect(await exists(user.id)).toBe(false);
    const audit = await t.db.selectFrom("audit_events").select("id").where("action", "=", "test.rolled_back").execute();
    expect(audit).toEqual([]);
  });

  it("rolls back on a defect", async () => {
    const user = aUser();
    const exit = await runExit(transaction(Effect.zipRight(insert(user), Effect.die(new Error("crash")))));
    expect(Exit.isFailure(exit)).toBe(true);
    expect(await exists(user.id)).toBe(false);
  });

  it("rolls back when a statement of the transaction fails (a defect)", async () => {
    const user = aUser();
    const exit = await runExit(transaction(Effect.zipRight(insert(user), insert(user))));
    expect(Exit.isFailure(exit)).toBe(true);
    expect(await exists(user.id)).toBe(false);
    // The connection is usable afterwards.
    expect(await exists("nobody")).toBe(false);
  });

  it("rolls back when interrupted", async () => {
    const user = aUser();
    await run(
      Effect.gen(function* () {
        const inserted = yield* Deferred.make<void>();
        const fiber = yield* Effect.fork(transaction(Effect.zipRight(Effect.zipRight(insert(user), Deferred.succeed(inserted, undefined)), Effect.never)));
        yield* Deferred.await(inserted);
        yield* Fiber.interrupt(fiber);
      }),
    );
    expect(await exists(user.id)).toBe(false);
  });

  it("joins the outer transaction when nested: an outer failure undoes the inner work", async () => {
    const inner = aUser();
    const outer = aUser();
    const exit = await runExit(
      transaction(
        Effect.gen(function* () {
          yield* transaction(insert(inner));
          yield* insert(outer);
          return yield* new Boom();
        }),
      ),
    );
    expect(Exit.isFailure(exit)).toBe(true);
    expect(await exists(inner.id)).toBe(false);
    expect(await exists(outer.id)).toBe(false);
  });

  it("runs forked fibers of the effect in the same transaction", async () => {
    const users = [aUser(), aUser(), aUser()];
    const exit = await runExit(
      transaction(Effect.zipRight(Effect.forEach(users, insert, { concurrency: "unbounded" }), Effect.fail(new Boom()))),
    );
    expect(Exit.isFailure(exit)).toBe(true);
    for (const user of users) expect(await exists(user.id)).toBe(false);
  });

  it("keeps concurrent transactions apart: one's rollback never undoes another's commit", async () => {
    const results = await run(
      Effect.forEach(
        Array.from({ length: 12 }, (_, i) => ({ user: aUser(), fails: i % 3 === 0 })),
        ({ user, fails }) =>
          Effect.exit(
            transaction(
              Effect.gen(function* () {
                yield* insert(user);
                yield* Effect.sleep(5);
                yield* (yield* Users).update(user.id, { firstName: "Committed" });
                if (fails) return yield* new Boom();
              }),
            ),
          ).pipe(Effect.map((exit) => ({ user, fails, exit }))),
        { concurrency: "unbounded" },
      ),
    );
    for (const { user, fails, exit } of results) {
      expect(Exit.isSuccess(exit)).toBe(!fails);
      const found = await run(Effect.flatMap(Users, (users) => users.findById(user.id)));
      expect(Option.isSome(found)).toBe(!fails);
      if (Option.isSome(found)) expect(found.value.firstName).toBe("Committed");
    }
  });

  it("keeps work outside any transaction out of a concurrent transaction that rolls back", async () => {
    const inTx = aUser();
    const outside = aUser();
    await run(
      Effect.gen(function* () {
        const started = yield* Deferred.make<void>();
        const fiber = yield* Effect.fork(
          Effect.exit(
            transaction(
              Effect.gen(function* () {
                yield* insert(inTx);
                yield* Deferred.succeed(started, undefined);
                yield* Effect.sleep(50);
                return yield* new Boom();
              }),
            ),
          ),
        );
        yield* Deferred.await(started);
        yield* insert(outside);
        yield* Fiber.join(fiber);
      }),
    );
    expect(await exists(inTx.id)).toBe(false);
    expect(await exists(outside.id)).toBe(true);
  });

  it("lets only one of two concurrent transactions consume a token", async () => {
    const user = aUser();
    const token = aToken(user.id);
    const when = at("2026-11-22T08:30:00.000Z");
    await run(Effect.zipRight(insert(user), Effect.flatMap(OneTimeTokens, (tokens) => tokens.insert(token))));
    const consumeAndHold = transaction(
      Effect.gen(function* () {
        const consumed = yield* (yield* OneTimeTokens).consume("password_reset", token.digest, when);
        yield* Effect.sleep(30);
        return Option.isSome(consumed);
      }),
    );
    const wins = await run(Effect.all([consumeAndHold, consumeAndHold], { concurrency: "unbounded" }));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it("gives repositories the transaction through executor(), and only inside it", async () => {
    const user = aUser();
    const ex = await run(
      transaction(
        Effect.gen(function* () {
          yield* insert(user);
          const ex = yield* executor(t.db);
          expect(ex).not.toBe(t.db);
          const row = yield* Effect.promise(() => ex.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst());
          expect(row).toEqual({ id: user.id });
          return ex;
        }),
      ),
    );
    // After commit the transaction is closed: repositories must never keep an executor around.
    await expect(ex.selectFrom("users").select("id").execute()).rejects.toThrow();
    expect(await run(executor(t.db))).toBe(t.db);
  });
});

describe("Transactor on PGlite (one connection)", async () => {
  if (!(await databaseKinds()).includes("pglite")) return;
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase("pglite");
  });
  afterAll(() => t?.drop());

  it("never interleaves statements of concurrent transactions (no lost updates)", async () => {
    const key = "counter";
    await t.db.insertInto("rate_limit_buckets").values({ key, window_start: new Date(), count: 0 }).execute();
    const increment = transaction(
      Effect.gen(function* () {
        const ex = yield* executor(t.db);
        const { count } = yield* Effect.promise(() =>
          ex.selectFrom("rate_limit_buckets").select("count").where("key", "=", key).executeTakeFirstOrThrow(),
        );
        yield* Effect.sleep(1);
        yield* Effect.promise(() => ex.updateTable("rate_limit_buckets").set({ count: count + 1 }).where("key", "=", key).execute());
      }),
    );
    await Effect.runPromise(Effect.provide(Effect.all(Array.from({ length: 25 }, () => increment), { concurrency: "unbounded" }), t.layer));
    const { count } = await t.db.selectFrom("rate_limit_buckets").select("count").where("key", "=", key).executeTakeFirstOrThrow();
    expect(count).toBe(25);
  });

  it("keeps the transactions of two databases apart when nested", async () => {
    const other = await createTestDatabase("pglite");
    try {
      const here = aUser();
      const there = aUser();
      const insertInto = (layer: TestDatabase["layer"], user: ReturnType<typeof aUser>) =>
        Effect.provide(Effect.flatMap(Users, (users) => users.insert(user)), layer);
      const transactionOf = <A, E, R>(layer: TestDatabase["layer"], effect: Effect.Effect<A, E, R>) =>
        Effect.flatMap(Effect.provide(Transactor, layer), (tx) => tx.run(effect));
      const exit = await Effect.runPromiseExit(
        transactionOf(
          t.layer,
          Effect.gen(function* () {
            yield* Effect.exit(transactionOf(other.layer, Effect.zipRight(insertInto(other.layer, there), Effect.fail(new Boom()))));
            // Still in this database's transaction (a query on the bare connection would wait forever).
            yield* insertInto(t.layer, here);
          }),
        ).pipe(Effect.timeout("10 seconds")),
      );
      expect(Exit.isSuccess(exit)).toBe(true);
      const find = (layer: TestDatabase["layer"], id: string) =>
        Effect.runPromise(Effect.provide(Effect.map(Effect.flatMap(Users, (users) => users.findById(id)), Option.isSome), layer));
      expect(await find(t.layer, here.id)).toBe(true);
      expect(await find(other.layer, there.id)).toBe(false);
    } finally {
      await other.drop();
    }
  });
});
