import { SignedInDevices, type SignedInDevicesPort } from "@crown/core/accounts/devices";
import { Effect, Layer } from "effect";
import type { Kysely } from "kysely";
import { run } from "../executor.ts";
import { sessionFromRow } from "./accounts.ts";
import type { Database } from "../schema.ts";

/* What each session was opened from (migration 2026-11-28T2031), for the profile's signed-in devices. */

export const makeSignedInDevices = (db: Kysely<Database>): SignedInDevicesPort => ({
  record: (sessionId, device) =>
    run(db, (ex) =>
      ex
        .insertInto("session_devices")
        .values({ session_id: sessionId, user_agent: device.userAgent, address: device.address })
        .onConflict((oc) => oc.column("session_id").doNothing())
        .execute(),
    ).pipe(Effect.asVoid),
  live: (userId, at) =>
    run(db, (ex) =>
      ex
        .selectFrom("sessions as s")
        .leftJoin("session_devices as d", "d.session_id", "s.id")
        .selectAll("s")
        .select(["d.user_agent", "d.address"])
        .where("s.user_id", "=", userId)
        .where("s.revoked_at", "is", null)
        .where("s.expires_at", ">", at)
        .orderBy("s.last_seen_at", "desc")
        .limit(200)
        .execute(),
    ).pipe(Effect.map((rows) => rows.map(({ user_agent, address, ...session }) => ({ session: sessionFromRow(session), device: { userAgent: user_agent, address } })))),
});

export const makeSignedInDevicesLayer = (db: Kysely<Database>) => Layer.succeed(SignedInDevices, makeSignedInDevices(db));
