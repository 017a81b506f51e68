import { AVAILABLE_EXPORT, type DataExport, DataExports, DOWNLOADED_EXPORT, type DataExportsPort, FamilyRecords, type FamilyRecordsPort, type Row } from "@crown/core/family-data/index";
import { Effect, Layer, Option } from "effect";
import { type Kysely, type Selectable, sql } from "kysely";
import { type Executor, run } from "../executor.ts";
import type { DataExportsTable, Database } from "../schema.ts";

/*
 * A family's own data (issue 44): the export's snapshot and the erasure, over every table that
 * names a parent or their children. A table added later that names a user or a baby belongs here
 * too (tests/api/family-data.test.ts looks for the child in every table after an erasure).
 */

// ---- Data exports (migration 2026-11-28T2032) ------------------------------------------------

const exportFromRow = (row: Selectable<DataExportsTable>): DataExport => ({
  id: row.id,
  userId: row.user_id,
  status: row.status,
  itemsDone: row.items_done,
  itemsTotal: row.items_total,
  blobKey: row.blob_key,
  size: row.size === null ? null : Number(row.size),
  linkDigest: row.link_digest,
  createdAt: row.created_at,
  readyAt: row.ready_at,
  expiresAt: row.expires_at,
  downloadedAt: row.downloaded_at,
});

export const makeDataExports = (db: Kysely<Database>): DataExportsPort => ({
  insert: (e) =>
    run(db, (ex) =>
      ex
        .insertInto("data_exports")
        .values({
          id: e.id,
          user_id: e.userId,
          status: e.status,
          items_done: e.itemsDone,
          items_total: e.itemsTotal,
          blob_key: e.blobKey,
          size: e.size,
          link_digest: e.linkDigest,
          created_at: e.createdAt,
          ready_at: e.readyAt,
          expires_at: e.expiresAt,
          downloaded_at: e.downloadedAt,
        })
        .execute(),
    ).pipe(Effect.asVoid),
  find: (id) =>
    run(db, (ex) => ex.selectFrom("data_exports").selectAll().where("id", "=", id).executeTakeFirst()).pipe(Effect.map((r) => Option.map(Option.fromNullable(r), exportFromRow))),
  forUser: (userId, limit) =>
    run(db, (ex) => ex.selectFrom("data_exports").selectAll().where("user_id", "=", userId).orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute()).pipe(
      Effect.map((rows) => rows.map(exportFromRow)),
    ),
  progress: (id, done, total) =>
    run(db, (ex) => ex.updateTable("data_exports").set({ items_done: done, items_total: total }).where("id", "=", id).execute()).pipe(Effect.asVoid),
  update: (id, change) =>
    run(db, (ex) =>
      ex
        .updateTable("data_exports")
        .set({
          ...(change.status !== undefined ? { status: change.status } : {}),
          ...(change.itemsDone !== undefined ? { items_done: change.itemsDone } : {}),
          ...(change.itemsTotal !== undefined ? { items_total: change.itemsTotal } : {}),
          ...(change.blobKey !== undefined ? { blob_key: change.blobKey } : {}),
          ...(change.size !== undefined ? { size: change.size } : {}),
          ...(change.linkDigest !== undefined ? { link_digest: change.linkDigest } : {}),
          ...(change.readyAt !== undefined ? { ready_at: change.readyAt } : {}),
          ...(change.expiresAt !== undefined ? { expires_at: change.expiresAt } : {}),
          ...(change.downloadedAt !== undefined ? { downloaded_at: change.downloadedAt } : {}),
        })
        .where("id", "=", id)
        .execute(),
    ).pipe(Effect.asVoid),
  // One statement: two uses at once cannot both see the link unused (the status is the lock).
  consume: (id, userId, digest, at) =>
    run(db, (ex) =>
      ex
        .updateTable("data_exports")
        .set({ status: DOWNLOADED_EXPORT, downloaded_at: at, link_digest: null })
        .where("id", "=", id)
        .where("user_id", "=", userId)
        .where("link_digest", "=", digest)
        .where("status", "=", AVAILABLE_EXPORT)
        .where("expires_at", ">", at)
        .returningAll()
        .executeTakeFirst(),
    ).pipe(Effect.map((r) => Option.map(Option.fromNullable(r), exportFromRow))),
  lapsing: (at, limit) =>
    run(db, (ex) => ex.selectFrom("data_exports").selectAll().where("blob_key", "is not", null).where("expires_at", "<=", at).orderBy("expires_at").limit(limit).execute()).pipe(
      Effect.map((rows) => rows.map(exportFromRow)),
    ),
});

// ---- The family's rows -----------------------------------------------------------------------

/** Columns never handed out: password and PIN hashes, token digests. */
const SECRET_COLUMNS = new Set(["password_hash", "pin_hash", "token_digest", "digest", "link_digest"]);
const clean = (row: Record<string, unknown>): Row => Object.fromEntries(Object.entries(row).filter(([k]) => !SECRET_COLUMNS.has(k)));

const rows = async (ex: Executor, query: ReturnType<typeof sql>) => ((await query.execute(ex)) as { rows: Record<string, unknown>[] }).rows;
const ids = (list: ReadonlyArray<Record<string, unknown>>, column = "id") => list.map((r) => String(r[column]));
/** `= any(array)` for a list of text ids (an empty list matches nothing). */
const anyOf = (values: ReadonlyArray<string>) => sql`any(${sql.val([...values])}::text[])`;

const snapshotOf = async (ex: Executor, userId: string) => {
  const [profile] = await rows(ex, sql`select * from users where id = ${userId}`);
  const babies = await rows(ex, sql`select * from babies where parent_id = ${userId} order by created_at, id`);
  const babyIds = ids(babies);
  const reports = await rows(ex, sql`select * from reports where baby_id = ${anyOf(babyIds)} order by created_at, id`);
  const reportIds = ids(reports);
  const attachments = await rows(ex, sql`select * from attachments where report_id = ${anyOf(reportIds)} order by created_at, id`);
  const measurements = await rows(ex, sql`select * from measurements where report_id = ${anyOf(reportIds)} order by created_at, attachment_id`);
  const versions = await rows(ex, sql`select * from report_versions where report_id = ${anyOf(reportIds)} order by report_id, version`);
  const conversations = await rows(ex, sql`select * from chat_conversations where user_id = ${userId} order by created_at, id`);
  const conversationIds = ids(conversations);
  const messages = await rows(ex, sql`select * from chat_messages where conversation_id = ${anyOf(conversationIds)} order by created_at, id`);
  const chatAttachments = await rows(ex, sql`select * from chat_attachments where conversation_id = ${anyOf(conversationIds)} order by created_at, id`);
  const notifications = await rows(ex, sql`select * from notifications where user_id = ${userId} order by created_at, id`);
  const linkRequests = await rows(ex, sql`select * from patient_link_requests where parent_id = ${userId} or baby_id = ${anyOf(babyIds)} order by created_at, id`);
  const marketing = await rows(ex, sql`select * from marketing_leads where parent_id = ${userId} order by created_at, id`);
  const research = await rows(ex, sql`select * from research_consents where baby_id = ${anyOf(babyIds)} order by baby_id`);
  const sessions = await rows(
    ex,
    sql`select s.id, s.created_at, s.last_seen_at, s.expires_at, s.revoked_at, s.device_type, d.user_agent, d.address from sessions s left join session_devices d on d.session_id = s.id where s.user_id = ${userId} order by s.created_at, s.id`,
  );
  const of = <T extends Record<string, unknown>>(list: T[], reportId: string) => list.filter((r) => r.report_id === reportId).map(clean);
  return {
    profile: clean(profile ?? {}),
    children: babies.map((baby) => ({
      baby: clean(baby) as Row & { id: string },
      reports: reports
        .filter((r) => r.baby_id === baby.id)
        .map((report) => ({
          report: clean(report) as Row & { id: string; version: number },
          attachments: of(attachments, String(report.id)) as Array<Row & { id: string; blob_key: string; file_name: string; extension: string }>,
          measurements: of(measurements, String(report.id)),
          versions: of(versions, String(report.id)) as Array<Row & { version: number; blob_key: string }>,
        })),
    })),
    notifications: notifications.map(clean),
    conversations: conversations.map(clean),
    messages: messages.map(clean),
    chatAttachments: chatAttachments.map(clean) as Array<Row & { id: string; blob_key: string; file_name: string }>,
    consents: {
      disclaimer_accepted_at: profile?.disclaimer_accepted_at ?? null,
      link_requests: linkRequests.map(clean),
      marketing: marketing.map(clean),
      research: research.map(clean),
      sessions: sessions.map(clean),
    },
  };
};

/** The pg-boss tables queued mails and jobs live in, when this database has them. */
const jobTables = async (ex: Executor) =>
  (await rows(ex, sql`select t from unnest(array['pgboss.job', 'pgboss.archive']) as t where to_regclass(t) is not null`)).map((r) => String(r.t));

const eraseOf = async (ex: Executor, userId: string) => {
  const [user] = await rows(ex, sql`select id, email, photo_key from users where id = ${userId}`);
  if (user === undefined) return { userId, babyIds: [], reportIds: [], attachmentIds: [], blobKeys: [] };
  const babyIds = ids(await rows(ex, sql`select id from babies where parent_id = ${userId}`));
  const reportIds = ids(await rows(ex, sql`select id from reports where baby_id = ${anyOf(babyIds)}`));
  const attachments = await rows(ex, sql`select id, blob_key from attachments where report_id = ${anyOf(reportIds)}`);
  const pdfs = await rows(ex, sql`select blob_key from report_versions where report_id = ${anyOf(reportIds)}`);
  const conversationIds = ids(await rows(ex, sql`select id from chat_conversations where user_id = ${userId}`));
  const chatFiles = await rows(ex, sql`select blob_key from chat_attachments where conversation_id = ${anyOf(conversationIds)}`);
  const archives = await rows(ex, sql`select blob_key from data_exports where user_id = ${userId} and blob_key is not null`);
  const named = [userId, ...babyIds, ...reportIds];
  const email = String(user.email);
  // The children's names as Crown wrote them to others (a provider's e-mail or notification says "the report of <name>").
  const names = (
    await rows(
      ex,
      sql`select distinct n from (select first_name || ' ' || last_name as n from babies where id = ${anyOf(babyIds)} union select baby_name from reports where id = ${anyOf(reportIds)}) x where length(n) > 3`,
    )
  ).map((r) => String(r.n));
  // Anything whose text names the account or a child: its identifiers, the e-mail address and the children's names.
  const needles = [...named, email, ...names];
  const mentions = (column: ReturnType<typeof sql>) => sql`(${sql.join(needles.map((n) => sql`position(${n} in ${column}) > 0`), sql` or `)})`;

  // Others' notifications and live events about the children (a physician's "new report for ...").
  await sql`delete from notifications where user_id = ${userId} or subject_id = ${anyOf(named)} or ${mentions(sql`coalesce(message_params::text, '') || text`)}`.execute(ex);
  await sql`delete from live_events where user_id = ${userId} or ${mentions(sql`data::text`)}`.execute(ex);
  await sql`delete from live_event_cursors where user_id = ${userId}`.execute(ex);
  // Reports first (their files, measurements, reviews, versions and reads go with them), then the children.
  await sql`delete from reports where id = ${anyOf(reportIds)}`.execute(ex);
  await sql`delete from patient_link_requests where parent_id = ${userId} or baby_id = ${anyOf(babyIds)}`.execute(ex);
  await sql`delete from kiosk_baby_codes where baby_id = ${anyOf(babyIds)}`.execute(ex);
  await sql`delete from marketing_leads where parent_id = ${userId}`.execute(ex);
  await sql`delete from babies where id = ${anyOf(babyIds)}`.execute(ex);
  await sql`delete from chat_conversations where id = ${anyOf(conversationIds)}`.execute(ex);
  await sql`delete from baa_signatures where user_id = ${userId}`.execute(ex);
  await sql`delete from quiz_attempts where user_id = ${userId}`.execute(ex);
  await sql`delete from rate_limit_buckets where ${mentions(sql`key`)}`.execute(ex);
  // Queued and finished jobs that carry the address or the identifiers (e-mails, analyses).
  for (const table of await jobTables(ex)) {
    await sql`delete from ${sql.raw(table)} where ${mentions(sql`coalesce(data::text, '')`)}`.execute(ex);
  }
  // The audit log keeps its entries about them, with identifiers only (the trigger allows this change alone, ADR 0150).
  await sql`select set_config('crown.audit_erasure', 'on', true)`.execute(ex);
  await sql`update audit_events set details = '{"erased": true}'::jsonb, ip = null
    where (actor_id = ${anyOf(named)} or subject_id = ${anyOf(named)} or on_behalf_of = ${anyOf(named)} or ${mentions(sql`details::text`)})
      and not (details = '{"erased": true}'::jsonb and ip is null)`.execute(ex);
  await sql`select set_config('crown.audit_erasure', 'off', true)`.execute(ex);
  // The account last: its sessions, devices, tokens, request, exports and the rest follow it.
  await sql`delete from users where id = ${userId}`.execute(ex);
  const blobKeys = [
    ...(typeof user.photo_key === "string" ? [user.photo_key] : []),
    ...attachments.map((a) => String(a.blob_key)),
    ...pdfs.map((p) => String(p.blob_key)),
    ...chatFiles.map((c) => String(c.blob_key)),
    ...archives.map((a) => String(a.blob_key)),
  ];
  return { userId, babyIds, reportIds, attachmentIds: ids(attachments), blobKeys };
};

export const makeFamilyRecords = (db: Kysely<Database>): FamilyRecordsPort => ({
  snapshot: (userId) => run(db, (ex) => snapshotOf(ex, userId)),
  erase: (userId) => run(db, (ex) => eraseOf(ex, userId)),
});

export const makeFamilyDataLayer = (db: Kysely<Database>) =>
  Layer.mergeAll(Layer.succeed(DataExports, makeDataExports(db)), Layer.succeed(FamilyRecords, makeFamilyRecords(db)));
