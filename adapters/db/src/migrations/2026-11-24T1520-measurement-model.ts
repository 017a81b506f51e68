import type { Kysely } from "kysely";

/**
 * The model that measured a photo — its name and its card's version — recorded with the numbers it
 * made (ADR 0066), so a report says which model measured it, not which one is installed now. Rows
 * measured before keep null: their model is unknown. Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("measurements").addColumn("model_name", "text").addColumn("model_version", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("measurements").dropColumn("model_name").dropColumn("model_version").execute();
}
