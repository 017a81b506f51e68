import { type Kysely, sql } from "kysely";

/**
 * Consent before a practice links an existing account (issue 15, ADR 56): a staff delegation is
 * offered until the staff member accepts (`accepted_at`), and a patient joins an existing parent's
 * account only through a request the parent accepts. Delegations already on file were live: accepted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("delegations").addColumn("accepted_at", "timestamptz").execute();
  await sql`update delegations set accepted_at = created_at`.execute(db);
  // A staff member's unanswered offers, for their page of requests.
  await sql`create index delegations_offered_idx on delegations (staff_id, created_at) where accepted_at is null and ended_at is null`.execute(db);
  await db.schema
    .createTable("patient_link_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("baby_id", "text", (c) => c.notNull().references("babies.id").onDelete("cascade"))
    .addColumn("physician_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("parent_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("requested_by", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("answered_at", "timestamptz")
    .execute();
  await db.schema.createIndex("patient_link_requests_parent_idx").on("patient_link_requests").columns(["parent_id", "status", "created_at"]).execute();
  await db.schema.createIndex("patient_link_requests_baby_idx").on("patient_link_requests").column("baby_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("patient_link_requests").execute();
  await sql`drop index if exists delegations_offered_idx`.execute(db);
  await db.schema.alterTable("delegations").dropColumn("accepted_at").execute();
}
