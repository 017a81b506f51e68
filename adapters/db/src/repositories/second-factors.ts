import { type Passkey, SecondFactors, type SecondFactorsPort } from "@crown/core";
import { Effect, Layer, Option } from "effect";
import { type Kysely, type Selectable, sql } from "kysely";
import { run } from "../executor.ts";
import type { Database, PasskeysTable } from "../schema.ts";

/* Two-step sign-in's tables (migration 2026-11-28T2021, issue 44); the tables are in schema.ts. */

const passkeyFromRow = (row: Selectable<PasskeysTable>): Passkey => ({
  id: row.id,
  userId: row.user_id,
  credentialId: row.credential_id,
  publicKey: new Uint8Array(row.public_key),
  counter: Number(row.counter),
  transports: row.transports,
  deviceType: row.device_type,
  backedUp: row.backed_up,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

export const makeSecondFactors = (db: Kysely<Database>): SecondFactorsPort => ({
  findTotp: (userId) =>
    run(db, (ex) => ex.selectFrom("totp_factors").selectAll().where("user_id", "=", userId).executeTakeFirst()).pipe(
      Effect.map((row) =>
        Option.map(Option.fromNullable(row), (r) => ({
          userId: r.user_id,
          sealedSecret: r.sealed_secret,
          confirmedAt: r.confirmed_at,
          lastStep: r.last_step === null ? null : Number(r.last_step),
          pendingSecret: r.pending_secret,
          pendingAt: r.pending_at,
        })),
      ),
    ),
  startTotp: (userId, sealedPending, at) =>
    run(db, (ex) =>
      ex
        .insertInto("totp_factors")
        .values({ user_id: userId, sealed_secret: null, confirmed_at: null, last_step: null, pending_secret: sealedPending, pending_at: at })
        .onConflict((oc) => oc.column("user_id").doUpdateSet({ pending_secret: sealedPending, pending_at: at }))
        .execute(),
    ).pipe(Effect.asVoid),
  confirmTotp: (userId, at, step) =>
    run(db, (ex) =>
      ex
        .updateTable("totp_factors")
        .set((eb) => ({ sealed_secret: eb.ref("pending_secret"), pending_secret: null, pending_at: null, confirmed_at: at, last_step: step }))
        .where("user_id", "=", userId)
        .where("pending_secret", "is not", null)
        .execute(),
    ).pipe(Effect.asVoid),
  // One statement: two sign-ins with the same code at once cannot both pass.
  useTotpStep: (userId, step) =>
    run(db, (ex) =>
      ex
        .updateTable("totp_factors")
        .set({ last_step: step })
        .where("user_id", "=", userId)
        .where("sealed_secret", "is not", null)
        .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)]))
        .executeTakeFirst(),
    ).pipe(Effect.map((r) => Number(r.numUpdatedRows) === 1)),
  removeTotp: (userId) => run(db, (ex) => ex.deleteFrom("totp_factors").where("user_id", "=", userId).execute()).pipe(Effect.asVoid),

  replaceRecoveryCodes: (userId, digests, at) =>
    run(db, async (ex) => {
      await ex.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
      if (digests.length > 0) await ex.insertInto("recovery_codes").values(digests.map((digest) => ({ user_id: userId, digest, created_at: at, used_at: null }))).execute();
    }),
  spendRecoveryCode: (userId, digest, at) =>
    run(db, (ex) =>
      ex.updateTable("recovery_codes").set({ used_at: at }).where("user_id", "=", userId).where("digest", "=", digest).where("used_at", "is", null).executeTakeFirst(),
    ).pipe(Effect.map((r) => Number(r.numUpdatedRows) === 1)),
  unusedRecoveryCodes: (userId) =>
    run(db, (ex) =>
      ex
        .selectFrom("recovery_codes")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("user_id", "=", userId)
        .where("used_at", "is", null)
        .executeTakeFirstOrThrow(),
    ).pipe(Effect.map((r) => Number(r.n))),

  passkeysOf: (userId) =>
    run(db, (ex) => ex.selectFrom("passkeys").selectAll().where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute()).pipe(
      Effect.map((rows) => rows.map(passkeyFromRow)),
    ),
  findPasskey: (credentialId) =>
    run(db, (ex) => ex.selectFrom("passkeys").selectAll().where("credential_id", "=", credentialId).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), passkeyFromRow)),
    ),
  insertPasskey: (p) =>
    run(db, (ex) =>
      ex
        .insertInto("passkeys")
        .values({
          id: p.id,
          user_id: p.userId,
          credential_id: p.credentialId,
          public_key: Buffer.from(p.publicKey),
          counter: p.counter,
          transports: sql<string[]>`${sql.val([...p.transports])}::text[]`,
          device_type: p.deviceType,
          backed_up: p.backedUp,
          name: p.name,
          created_at: p.createdAt,
          last_used_at: p.lastUsedAt,
        })
        .execute(),
    ).pipe(Effect.asVoid),
  passkeyUsed: (id, counter, at) =>
    run(db, (ex) => ex.updateTable("passkeys").set({ counter, last_used_at: at }).where("id", "=", id).execute()).pipe(Effect.asVoid),
  removePasskey: (userId, id) =>
    run(db, (ex) => ex.deleteFrom("passkeys").where("user_id", "=", userId).where("id", "=", id).executeTakeFirst()).pipe(
      Effect.map((r) => Number(r.numDeletedRows) === 1),
    ),

  removeAll: (userId) =>
    run(db, async (ex) => {
      await ex.deleteFrom("totp_factors").where("user_id", "=", userId).execute();
      await ex.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
      await ex.deleteFrom("passkeys").where("user_id", "=", userId).execute();
    }),

  insertCeremony: (c) =>
    run(db, async (ex) => {
      // Lapsed challenges go as new ones come: the table holds minutes of ceremonies, never more.
      await ex.deleteFrom("passkey_ceremonies").where("expires_at", "<", new Date(c.expiresAt.getTime() - 3_600_000)).execute();
      await ex.insertInto("passkey_ceremonies").values({ digest: c.digest, purpose: c.purpose, user_id: c.userId, expires_at: c.expiresAt, consumed_at: null }).execute();
    }),
  consumeCeremony: (digest, purpose, at) =>
    run(db, (ex) =>
      ex
        .updateTable("passkey_ceremonies")
        .set({ consumed_at: at })
        .where("digest", "=", digest)
        .where("purpose", "=", purpose)
        .where("consumed_at", "is", null)
        .where("expires_at", ">", at)
        .returningAll()
        .executeTakeFirst(),
    ).pipe(Effect.map((row) => Option.map(Option.fromNullable(row), (r) => ({ digest: r.digest, purpose: r.purpose, userId: r.user_id, expiresAt: r.expires_at })))),
});

export const makeSecondFactorsLayer = (db: Kysely<Database>) => Layer.succeed(SecondFactors, makeSecondFactors(db));
