import { type Kysely, sql } from "kysely";

/**
 * Account removal carried out (issue 44): a request is erased after its grace period unless an
 * administrator holds it (legal hold). The audit log stays append-only except for one change made
 * only inside an erasure's transaction: an entry about an erased account keeps its identifiers and
 * loses its details and address. Frozen in time: imports nothing from the app.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("account_removal_requests")
    .addColumn("erase_after", "timestamptz")
    .addColumn("held_at", "timestamptz")
    .addColumn("held_by", "text")
    .addColumn("hold_reason", "text")
    .execute();
  // Requests made before this change get the same 14 days from their own date.
  await sql`update account_removal_requests set erase_after = created_at + interval '14 days'`.execute(db);
  await sql`alter table account_removal_requests alter column erase_after set not null`.execute(db);
  await sql`create index account_removal_requests_due_idx on account_removal_requests (erase_after) where held_at is null`.execute(db);
  await sql`
    create or replace function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and coalesce(current_setting('crown.audit_erasure', true), '') = 'on'
        and new.id = old.id and new.at = old.at and new.action = old.action
        and new.actor_id is not distinct from old.actor_id and new.subject_id is not distinct from old.subject_id
        and new.on_behalf_of is not distinct from old.on_behalf_of and new.request_id is not distinct from old.request_id
        and new.ip is null and new.details = '{"erased": true}'::jsonb then
        return new;
      end if;
      raise exception 'audit_events is append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
    end;
    $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_events is append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
    end;
    $$`.execute(db);
  await sql`drop index if exists account_removal_requests_due_idx`.execute(db);
  await db.schema.alterTable("account_removal_requests").dropColumn("erase_after").dropColumn("held_at").dropColumn("held_by").dropColumn("hold_reason").execute();
}
