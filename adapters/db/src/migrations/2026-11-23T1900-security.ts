import { type Kysely, sql } from "kysely";

/**
 * Issue 15: single-use stream tickets are one-time tokens of their own purpose; an audit row names
 * the request it came from and on whose behalf a staff member acted; a visitor's e-mail no longer
 * names one conversation (each visitor's token reaches only the conversation it started).
 * Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table one_time_tokens drop constraint one_time_tokens_purpose_check`.execute(db);
  await sql`alter table one_time_tokens add constraint one_time_tokens_purpose_check check (purpose in ('email_verification', 'password_reset', 'invitation', 'stream_ticket'))`.execute(db);
  await db.schema.alterTable("audit_events").addColumn("request_id", "text").addColumn("on_behalf_of", "text").execute();
  await sql`drop index chat_conversations_visitor_idx`.execute(db);
  await sql`create index chat_conversations_visitor_idx on chat_conversations (visitor_email) where visitor_email is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index chat_conversations_visitor_idx`.execute(db);
  await sql`create unique index chat_conversations_visitor_idx on chat_conversations (visitor_email) where visitor_email is not null`.execute(db);
  await db.schema.alterTable("audit_events").dropColumn("request_id").dropColumn("on_behalf_of").execute();
  await sql`delete from one_time_tokens where purpose = 'stream_ticket'`.execute(db);
  await sql`alter table one_time_tokens drop constraint one_time_tokens_purpose_check`.execute(db);
  await sql`alter table one_time_tokens add constraint one_time_tokens_purpose_check check (purpose in ('email_verification', 'password_reset', 'invitation'))`.execute(db);
}
