import { type Kysely, sql } from "kysely";

/**
 * Learning from the reviewers (issue 41): a parent's choice, per child, whether the child's photos
 * may be used to improve Crown (none until chosen), and the reviewed sets exported from consented
 * photos, each with its examples, so a withdrawal can take a child out of every set no shipped model
 * has used. Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("research_consents")
    .addColumn("baby_id", "text", (c) => c.primaryKey().references("babies.id").onDelete("cascade"))
    .addColumn("choice", "text", (c) => c.check(sql`choice in ('granted', 'declined', 'withdrawn')`))
    .addColumn("chosen_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("chosen_at", "timestamptz")
    .addColumn("text_version", "text")
    .addColumn("asked_at", "timestamptz")
    .execute();
  await db.schema
    .createTable("reviewed_sets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("directory", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("manifest", "jsonb", (c) => c.notNull())
    // The model (name and version) that trained or was validated on the set; set at promotion.
    .addColumn("used_by_model", "text")
    .execute();
  await db.schema
    .createTable("reviewed_set_examples")
    .addColumn("set_id", "text", (c) => c.notNull().references("reviewed_sets.id").onDelete("cascade"))
    .addColumn("attachment_id", "text", (c) => c.notNull())
    .addColumn("baby_id", "text", (c) => c.notNull())
    .addColumn("image", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("reviewed_set_examples_pk", ["set_id", "attachment_id"])
    .execute();
  await db.schema.createIndex("reviewed_set_examples_baby").on("reviewed_set_examples").column("baby_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("reviewed_set_examples").execute();
  await db.schema.dropTable("reviewed_sets").execute();
  await db.schema.dropTable("research_consents").execute();
}
