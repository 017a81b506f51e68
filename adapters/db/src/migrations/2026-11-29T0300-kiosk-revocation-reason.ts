import { type Kysely, sql } from "kysely";

/**
 * Why a kiosk device was revoked (issue 46, item 12; ADR 0170): one of a fixed list, or null when no
 * reason was given (older clients, and every revocation before this one). Who and when were already kept.
 * Frozen in time: imports nothing from the app, so the list is written out here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("kiosk_devices")
    .addColumn("revocation_reason", "text", (c) => c.check(sql`revocation_reason in ('lost_or_stolen', 'replaced', 'no_longer_used', 'security_concern')`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("kiosk_devices").dropColumn("revocation_reason").execute();
}
