import type { Kysely } from "kysely";

/**
 * A notification's message key and parameters (issue 21), so the bell shows it in the reader's
 * language. Notifications on file keep only their English text (null here). Frozen in time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("notifications").addColumn("message_key", "text").addColumn("message_params", "jsonb").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("notifications").dropColumn("message_params").dropColumn("message_key").execute();
}
