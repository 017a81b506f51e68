import type { Kysely } from "kysely";

/**
 * The admin console's audit log view filters by action (and pages by id): an index for that filter.
 * Actor and subject filters use the indexes of the accounts migration. Imports nothing from the app.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("audit_events_action_idx").on("audit_events").columns(["action", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("audit_events_action_idx").execute();
}
