import { type Kysely, sql } from "kysely";

/**
 * A reviewer's correction of a photo (issue 41): the model's own answer kept beside the reviewer's
 * outline and figures, who corrected and when, whether the outline itself was changed, and why a
 * rejected photo was rejected (one of the quiz's eight reasons). Frozen in time: imports nothing
 * from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("measurements")
    .addColumn("outline_corrected", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("model_answer", "jsonb")
    .addColumn("corrected_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("corrected_at", "timestamptz")
    .addColumn("decision_reason", "text")
    .execute();
  // The labelled examples are read by correction time (the reviewed set, the agreement figures).
  await sql`create index measurements_corrected_at on measurements (corrected_at) where corrected_at is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists measurements_corrected_at`.execute(db);
  await db.schema
    .alterTable("measurements")
    .dropColumn("outline_corrected")
    .dropColumn("model_answer")
    .dropColumn("corrected_by")
    .dropColumn("corrected_at")
    .dropColumn("decision_reason")
    .execute();
}
