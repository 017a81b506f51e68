import { type Kysely, sql } from "kysely";

/**
 * The language of each account's e-mails and reports (issue 21, ADR 77). Accounts on file are English,
 * as everything they received so far was. Frozen in time: imports nothing from the app.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("language", "text", (c) => c.notNull().defaultTo("en").check(sql`language in ('en', 'es')`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("language").execute();
}
