import { IdempotencyKeys, type IdempotencyKeysPort } from "@crown/core/shared/idempotency";
import { Effect, Layer, Option } from "effect";
import { type Kysely, sql } from "kysely";
import { run } from "../executor.ts";
import type { Database } from "../schema.ts";

/**
 * Idempotency keys (ADR 0141). `claim` inserts the key's row; a second call with the same key finds the
 * row taken — after waiting, on PostgreSQL's unique index, for the first call's transaction to end — and
 * reads the answer it committed.
 */
export const makeIdempotencyKeys = (db: Kysely<Database>): IdempotencyKeysPort => ({
  claim: (userId, operation, key) =>
    run(db, async (ex) => {
      const taken = await ex
        .insertInto("idempotency_keys")
        .values({ user_id: userId, operation, key, answer: null })
        .onConflict((oc) => oc.columns(["user_id", "operation", "key"]).doNothing())
        .returning("key")
        .executeTakeFirst();
      if (taken) return Option.none();
      const prior = await ex.selectFrom("idempotency_keys").select("answer").where("user_id", "=", userId).where("operation", "=", operation).where("key", "=", key).executeTakeFirst();
      return Option.some(prior?.answer ?? null);
    }),
  remember: (userId, operation, key, answer) =>
    Effect.asVoid(
      run(db, (ex) =>
        ex
          .updateTable("idempotency_keys")
          .set({ answer: sql`${JSON.stringify(answer)}::jsonb` })
          .where("user_id", "=", userId)
          .where("operation", "=", operation)
          .where("key", "=", key)
          .execute(),
      ),
    ),
});

/** Keys older than `hours` are forgotten (the recovery loop calls this). */
export const forgetIdempotencyKeys = (db: Kysely<Database>, hours: number) =>
  db.deleteFrom("idempotency_keys").where(sql<boolean>`created_at < now() - make_interval(hours => ${hours})`).executeTakeFirst();

export const makeIdempotencyLayer = (db: Kysely<Database>) => Layer.succeed(IdempotencyKeys, makeIdempotencyKeys(db));
