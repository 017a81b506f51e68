import { type Kysely, sql } from "kysely";

/**
 * The admin console's list of practices awaiting verification (ADR 25, ADR 60): a partial index
 * holding only Active physicians not yet verified, in the order the admin works through them
 * (longest waiting first). The list and its count read this index alone, so their cost follows the
 * practices waiting, not every account. Frozen in time: imports nothing from the app.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index users_practices_awaiting_verification on users (created_at, id)
    where type = 'physician' and status = 'Active' and practice_verified_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index users_practices_awaiting_verification`.execute(db);
}
