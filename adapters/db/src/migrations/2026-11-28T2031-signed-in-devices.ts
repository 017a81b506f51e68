import { type Kysely } from "kysely";

/**
 * What a session was opened from, for the profile's list of signed-in devices (issue 44): the
 * browser's User-Agent and the client address at sign-in. Its own table, so the session row that
 * every request reads stays as narrow as it was. Frozen in time: imports nothing from the app.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("session_devices")
    .addColumn("session_id", "text", (c) => c.primaryKey().references("sessions.id").onDelete("cascade"))
    .addColumn("user_agent", "text")
    .addColumn("address", "text")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("session_devices").execute();
}
