import { type KioskBabyCode, KioskBabyCodes, type KioskBabyCodesPort, type KioskDevice, KioskDevices, type KioskDevicesPort, KioskPins, type KioskPinsPort, type KioskSession, KioskSessions, type KioskSessionsPort } from "@crown/core";
import { isRevocationReason } from "@crown/core/kiosk/revocation";
import { Effect, Layer, Option } from "effect";
import { type Kysely, type Selectable } from "kysely";
import { run } from "../executor.ts";
import type { Database, KioskBabyCodesTable, KioskDevicesTable, KioskSessionsTable } from "../schema.ts";

/*
 * Repositories of the kiosk (migration 2026-11-22T0800): devices, PINs and kiosk sessions.
 * Their tables are in schema.ts.
 */

export const deviceFromRow = (row: Selectable<KioskDevicesTable>): KioskDevice => ({
  id: row.id,
  physicianId: row.physician_id,
  name: row.name,
  createdBy: row.created_by ?? "",
  createdAt: row.created_at,
  pairingDigest: row.pairing_digest,
  pairingExpiresAt: row.pairing_expires_at,
  credentialDigest: row.credential_digest,
  pairedAt: row.paired_at,
  lastSeenAt: row.last_seen_at,
  revokedAt: row.revoked_at,
  revokedBy: row.revoked_by,
  // The column's check allows only the list; anything else would be a reason this release does not know.
  revocationReason: isRevocationReason(row.revocation_reason) ? row.revocation_reason : null,
});

const oneDevice = (row: Selectable<KioskDevicesTable> | undefined) => Option.map(Option.fromNullable(row), deviceFromRow);

export const makeKioskDevices = (db: Kysely<Database>): KioskDevicesPort => ({
  insert: (d) =>
    run(db, (ex) =>
      ex
        .insertInto("kiosk_devices")
        .values({
          id: d.id,
          physician_id: d.physicianId,
          name: d.name,
          created_by: d.createdBy,
          created_at: d.createdAt,
          pairing_digest: d.pairingDigest,
          pairing_expires_at: d.pairingExpiresAt,
          credential_digest: d.credentialDigest,
          paired_at: d.pairedAt,
          last_seen_at: d.lastSeenAt,
          revoked_at: d.revokedAt,
          revoked_by: d.revokedBy,
          revocation_reason: d.revocationReason,
        })
        .execute(),
    ).pipe(Effect.asVoid),
  findById: (id) => run(db, (ex) => ex.selectFrom("kiosk_devices").selectAll().where("id", "=", id).executeTakeFirst()).pipe(Effect.map(oneDevice)),
  findByCredential: (digest) =>
    run(db, (ex) => ex.selectFrom("kiosk_devices").selectAll().where("credential_digest", "=", digest).executeTakeFirst()).pipe(Effect.map(oneDevice)),
  // One conditional update: the code is consumed and the credential bound, or nothing happens.
  pair: (pairingDigest, credentialDigest, at) =>
    run(db, (ex) =>
      ex
        .updateTable("kiosk_devices")
        .set({ pairing_digest: null, pairing_expires_at: null, credential_digest: credentialDigest, paired_at: at, last_seen_at: at })
        .where("pairing_digest", "=", pairingDigest)
        .where("pairing_expires_at", ">", at)
        .where("revoked_at", "is", null)
        .where("paired_at", "is", null)
        .returningAll()
        .executeTakeFirst(),
    ).pipe(Effect.map(oneDevice)),
  listForPhysician: (physicianId) =>
    run(db, (ex) => ex.selectFrom("kiosk_devices").selectAll().where("physician_id", "=", physicianId).orderBy("created_at", "desc").orderBy("id").execute()).pipe(
      Effect.map((rows) => rows.map(deviceFromRow)),
    ),
  revoke: (id, at, by, reason) =>
    run(db, (ex) =>
      ex
        .updateTable("kiosk_devices")
        .set({ revoked_at: at, revoked_by: by, revocation_reason: reason, pairing_digest: null, pairing_expires_at: null })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .execute(),
    ).pipe(Effect.asVoid),
  touch: (id, at) => run(db, (ex) => ex.updateTable("kiosk_devices").set({ last_seen_at: at }).where("id", "=", id).execute()).pipe(Effect.asVoid),
});

export const makeKioskPins = (db: Kysely<Database>): KioskPinsPort => ({
  set: (userId, pinHash, at) =>
    run(db, (ex) =>
      ex
        .insertInto("kiosk_pins")
        .values({ user_id: userId, pin_hash: pinHash, updated_at: at })
        .onConflict((oc) => oc.column("user_id").doUpdateSet({ pin_hash: pinHash, updated_at: at }))
        .execute(),
    ).pipe(Effect.asVoid),
  find: (userId) =>
    run(db, (ex) => ex.selectFrom("kiosk_pins").select("pin_hash").where("user_id", "=", userId).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), (r) => r.pin_hash)),
    ),
  withPin: (userIds) =>
    userIds.length === 0
      ? Effect.succeed([])
      : run(db, (ex) => ex.selectFrom("kiosk_pins").select("user_id").where("user_id", "in", [...userIds]).execute()).pipe(Effect.map((rows) => rows.map((r) => r.user_id))),
});

const sessionFromRow = (row: Selectable<KioskSessionsTable>): KioskSession => ({
  id: row.id,
  deviceId: row.device_id,
  staffId: row.staff_id,
  physicianId: row.physician_id,
  tokenDigest: row.token_digest,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
  endedAt: row.ended_at,
});

export const makeKioskSessions = (db: Kysely<Database>): KioskSessionsPort => ({
  insert: (s) =>
    run(db, (ex) =>
      ex
        .insertInto("kiosk_sessions")
        .values({
          id: s.id,
          device_id: s.deviceId,
          staff_id: s.staffId,
          physician_id: s.physicianId,
          token_digest: s.tokenDigest,
          created_at: s.createdAt,
          last_seen_at: s.lastSeenAt,
          expires_at: s.expiresAt,
          ended_at: s.endedAt,
        })
        .execute(),
    ).pipe(Effect.asVoid),
  findByDigest: (digest) =>
    run(db, (ex) => ex.selectFrom("kiosk_sessions").selectAll().where("token_digest", "=", digest).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), sessionFromRow)),
    ),
  touch: (id, at) => run(db, (ex) => ex.updateTable("kiosk_sessions").set({ last_seen_at: at }).where("id", "=", id).execute()).pipe(Effect.asVoid),
  end: (id, at) =>
    run(db, (ex) => ex.updateTable("kiosk_sessions").set({ ended_at: at }).where("id", "=", id).where("ended_at", "is", null).execute()).pipe(Effect.asVoid),
  endAllForDevice: (deviceId, at) =>
    run(db, (ex) => ex.updateTable("kiosk_sessions").set({ ended_at: at }).where("device_id", "=", deviceId).where("ended_at", "is", null).execute()).pipe(
      Effect.asVoid,
    ),
});

const babyCodeFromRow = (row: Selectable<KioskBabyCodesTable>): KioskBabyCode => ({
  digest: row.digest,
  babyId: row.baby_id,
  issuedBy: row.issued_by ?? "",
  expiresAt: row.expires_at,
  usedAt: row.used_at,
  createdAt: row.created_at,
});

export const makeKioskBabyCodes = (db: Kysely<Database>): KioskBabyCodesPort => ({
  insert: (code) =>
    run(db, (ex) =>
      ex
        .insertInto("kiosk_baby_codes")
        .values({ digest: code.digest, baby_id: code.babyId, issued_by: code.issuedBy, expires_at: code.expiresAt, used_at: code.usedAt, created_at: code.createdAt })
        .execute(),
    ).pipe(Effect.asVoid),
  // One statement: under concurrent lookups PostgreSQL re-checks `used_at is null` on the locked row, so one wins.
  consume: (digest, at) =>
    run(db, (ex) =>
      ex.updateTable("kiosk_baby_codes").set({ used_at: at }).where("digest", "=", digest).where("used_at", "is", null).where("expires_at", ">", at).returningAll().executeTakeFirst(),
    ).pipe(Effect.map((row) => Option.map(Option.fromNullable(row), babyCodeFromRow))),
});

/** The kiosk ports over `db`. */
export const makeKioskLayer = (db: Kysely<Database>) =>
  Layer.mergeAll(
    Layer.succeed(KioskDevices, makeKioskDevices(db)),
    Layer.succeed(KioskPins, makeKioskPins(db)),
    Layer.succeed(KioskSessions, makeKioskSessions(db)),
    Layer.succeed(KioskBabyCodes, makeKioskBabyCodes(db)),
  );
