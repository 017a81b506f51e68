import { type Kysely, sql } from "kysely";

/**
 * The measurement's verdict: accept, retake or refer (to the reviewer). Rows measured before it
 * existed get it from `accepted` (accept or retake). Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("measurements").addColumn("verdict", "text").execute();
  await sql`update measurements set verdict = case when accepted then 'accept' else 'retake' end`.execute(db);
  await db.schema
    .alterTable("measurements")
    .addCheckConstraint("measurements_verdict_check", sql`verdict is null or verdict in ('accept', 'retake', 'refer')`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("measurements").dropConstraint("measurements_verdict_check").execute();
  await db.schema.alterTable("measurements").dropColumn("verdict").execute();
}
