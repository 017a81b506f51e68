import { type Kysely, sql } from "kysely";

/**
 * A physician's NPI number and whether an admin has verified the practice (issue 15, ADR 25).
 * Physicians already on file were admitted before vetting existed: they count as verified.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("npi", "text")
    .addColumn("practice_verified_at", "timestamptz")
    .addColumn("practice_verified_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .execute();
  await sql`update users set practice_verified_at = created_at where type = 'physician'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("practice_verified_by").dropColumn("practice_verified_at").dropColumn("npi").execute();
}
