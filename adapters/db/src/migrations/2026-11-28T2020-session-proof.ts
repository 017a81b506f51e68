import { type Kysely, sql } from "kysely";

/**
 * Issue 44: each session's latest proof of identity (sign-in, the password or a passkey given again),
 * which the sensitive actions ask to be under ten minutes old, and when its second factor was proved.
 * Sessions on file count as proved at their start, and without a second factor.
 * Frozen in time: imports nothing from the app.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("last_proof_at", "timestamptz").addColumn("second_factor_at", "timestamptz").execute();
  await sql`update sessions set last_proof_at = created_at`.execute(db);
  await db.schema.alterTable("sessions").alterColumn("last_proof_at", (c) => c.setNotNull()).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").dropColumn("last_proof_at").dropColumn("second_factor_at").execute();
}
