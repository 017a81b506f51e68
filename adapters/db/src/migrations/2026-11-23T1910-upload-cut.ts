import type { Kysely } from "kysely";

/**
 * A report remembers its last upload that ended early (the connection cut half-way): when, and
 * which whole files were kept, so the next GET /report/{id} can say so (ADR 0028).
 * Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("reports").addColumn("upload_cut", "jsonb").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("reports").dropColumn("upload_cut").execute();
}
