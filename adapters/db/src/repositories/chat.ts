import {
  ACTIVE_STATUS,
  Chat,
  type ChatAttachment,
  type ChatMessage,
  ChatMessages,
  type ChatMessagesPort,
  type Conversation,
  Conversations,
  type ConversationsPort,
  type ConversationStatus,
  type AuthorKind,
  type User,
  VisitorTokens,
  type VisitorTokensPort,
} from "@crown/core";
import { Effect, Layer, Option } from "effect";
import { type Kysely, type Selectable, sql } from "kysely";
import { type Executor, run } from "../executor.ts";
import { userFromRow } from "./accounts.ts";
import type { ChatAttachmentsTable, ChatConversationsTable, ChatMessagesTable, Database, UserRow } from "../schema.ts";

/*
 * Repositories of the support chat (migration 2026-11-22T0700). Their tables are in schema.ts.
 */

// ---- Conversations ---------------------------------------------------------------------------------------

export const conversationFromRow = (row: Selectable<ChatConversationsTable>): Conversation => ({
  id: row.id,
  userId: row.user_id,
  visitorEmail: row.visitor_email,
  visitorName: row.visitor_name,
  status: row.status,
  assigneeId: row.assignee_id,
  lastMessageAt: row.last_message_at,
  closedAt: row.closed_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const conversationColumns = {
  status: "status",
  assigneeId: "assignee_id",
  lastMessageAt: "last_message_at",
  closedAt: "closed_at",
  visitorName: "visitor_name",
  updatedAt: "updated_at",
} as const;

const one = (row: Selectable<ChatConversationsTable> | undefined) => Option.map(Option.fromNullable(row), conversationFromRow);

/** Customer messages support has not read, per conversation. */
const unreadBySupport = sql<number>`(select count(*) from chat_messages m where m.conversation_id = chat_conversations.id and m.author_kind <> 'support' and m.read_at is null)`;

export const makeConversations = (db: Kysely<Database>): ConversationsPort => ({
  insert: (c) =>
    run(db, (ex) =>
      ex
        .insertInto("chat_conversations")
        .values({
          id: c.id,
          user_id: c.userId,
          visitor_email: c.visitorEmail,
          visitor_name: c.visitorName,
          status: c.status,
          assignee_id: c.assigneeId,
          last_message_at: c.lastMessageAt,
          closed_at: c.closedAt,
          created_at: c.createdAt,
          updated_at: c.updatedAt,
        })
        .execute(),
    ).pipe(Effect.asVoid),
  findById: (id) => run(db, (ex) => ex.selectFrom("chat_conversations").selectAll().where("id", "=", id).executeTakeFirst()).pipe(Effect.map(one)),
  lock: (id) => run(db, (ex) => ex.selectFrom("chat_conversations").selectAll().where("id", "=", id).forUpdate().executeTakeFirst()).pipe(Effect.map(one)),
  findByUser: (userId) =>
    run(db, (ex) => ex.selectFrom("chat_conversations").selectAll().where("user_id", "=", userId).executeTakeFirst()).pipe(Effect.map(one)),
  update: (id, patch) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of Object.entries(conversationColumns)) {
      const value = patch[key as keyof typeof conversationColumns];
      if (value !== undefined) row[column] = value;
    }
    if (Object.keys(row).length === 0) return Effect.void;
    return run(db, (ex) => ex.updateTable("chat_conversations").set(row).where("id", "=", id).execute()).pipe(Effect.asVoid);
  },
  inbox: (query, page) =>
    run(db, async (ex) => {
      let base = ex.selectFrom("chat_conversations").where("last_message_at", "is not", null);
      if (query.status !== "all") base = base.where("status", "=", query.status);
      if (query.assigneeId !== null) base = base.where("assignee_id", "=", query.assigneeId);
      const rows = await base
        .selectAll()
        .select(unreadBySupport.as("unread"))
        .orderBy(sql`(${unreadBySupport}) > 0`, "desc")
        .orderBy("last_message_at", "desc")
        .orderBy("id")
        .limit(page.perPage)
        .offset((page.page - 1) * page.perPage)
        .execute();
      const count = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      const ids = rows.map((r) => r.id);
      const last =
        ids.length === 0
          ? []
          : await ex
              .selectFrom("chat_messages")
              .selectAll()
              .where("conversation_id", "in", ids)
              .distinctOn("conversation_id")
              .orderBy("conversation_id")
              .orderBy("created_at", "desc")
              .orderBy("id", "desc")
              .execute();
      const messages = await withAttachments(ex, last);
      const userIds = rows.map((r) => r.user_id).filter((id): id is string => id !== null);
      const users = userIds.length === 0 ? [] : await ex.selectFrom("users").selectAll().where("id", "in", userIds).execute();
      const usersById = new Map(users.map((u) => [u.id, userFromRow(u as UserRow)]));
      const lastById = new Map(messages.map((m) => [m.conversationId, m]));
      return {
        data: rows.map((r) => ({
          conversation: conversationFromRow(r),
          unread: Number(r.unread),
          lastMessage: lastById.get(r.id) ?? null,
          user: r.user_id !== null ? usersById.get(r.user_id) ?? null : null,
        })),
        total: Number(count.n),
      };
    }),
  inboxUnread: () =>
    run(db, (ex) =>
      ex
        .selectFrom("chat_messages")
        .where("author_kind", "<>", "support")
        .where("read_at", "is", null)
        .select(sql<number>`count(distinct conversation_id)`.as("n"))
        .executeTakeFirstOrThrow(),
    ).pipe(Effect.map((r) => Number(r.n))),
  supportTeam: () =>
    run(db, (ex) => ex.selectFrom("users").selectAll().where("type", "in", [...Chat.SUPPORT_TYPES]).where("status", "=", ACTIVE_STATUS).orderBy("id").execute()).pipe(
      Effect.map((rows): ReadonlyArray<User> => rows.map(userFromRow)),
    ),
});

// ---- Messages ----------------------------------------------------------------------------------------------

const attachmentFromRow = (row: Selectable<ChatAttachmentsTable>): ChatAttachment => ({
  id: row.id,
  messageId: row.message_id,
  conversationId: row.conversation_id,
  blobKey: row.blob_key,
  mime: row.mime,
  size: Number(row.size),
  fileName: row.file_name,
  createdAt: row.created_at,
});

const withAttachments = async (ex: Executor, rows: ReadonlyArray<Selectable<ChatMessagesTable>>): Promise<ChatMessage[]> => {
  const ids = rows.map((r) => r.id);
  const attachments =
    ids.length === 0 ? [] : await ex.selectFrom("chat_attachments").selectAll().where("message_id", "in", ids).orderBy("created_at").orderBy("id").execute();
  const byMessage = new Map<string, ChatAttachment[]>();
  for (const a of attachments) byMessage.set(a.message_id, [...(byMessage.get(a.message_id) ?? []), attachmentFromRow(a)]);
  return rows.map((r) => ({
    id: r.id,
    conversationId: r.conversation_id,
    authorKind: r.author_kind,
    authorId: r.author_id,
    text: r.text,
    attachments: byMessage.get(r.id) ?? [],
    createdAt: r.created_at,
    readAt: r.read_at,
    emailedAt: r.emailed_at,
  }));
};

/** The kinds of author whose messages `reader` reads. */
const writtenByOtherSide = (reader: "customer" | "support"): ReadonlyArray<AuthorKind> => (reader === "customer" ? ["support"] : ["user", "visitor"]);

export const makeChatMessages = (db: Kysely<Database>): ChatMessagesPort => ({
  insert: (m) =>
    run(db, async (ex) => {
      await ex
        .insertInto("chat_messages")
        .values({ id: m.id, conversation_id: m.conversationId, author_kind: m.authorKind, author_id: m.authorId, text: m.text, created_at: m.createdAt, read_at: m.readAt, emailed_at: m.emailedAt })
        .execute();
      if (m.attachments.length > 0) {
        await ex
          .insertInto("chat_attachments")
          .values(
            m.attachments.map((a) => ({
              id: a.id,
              message_id: m.id,
              conversation_id: m.conversationId,
              blob_key: a.blobKey,
              mime: a.mime,
              size: a.size,
              file_name: a.fileName,
              created_at: a.createdAt,
            })),
          )
          .execute();
      }
    }),
  list: (conversationId, query) =>
    run(db, async (ex) => {
      let q = ex.selectFrom("chat_messages").selectAll().where("conversation_id", "=", conversationId);
      if (query.since !== null) q = q.where("created_at", ">=", query.since);
      if (query.before !== null) {
        const before = await ex.selectFrom("chat_messages").select(["created_at", "id"]).where("id", "=", query.before).where("conversation_id", "=", conversationId).executeTakeFirst();
        if (before === undefined) return [];
        q = q.where(sql<boolean>`(created_at, id) < (${before.created_at}, ${before.id})`);
      }
      const rows = await q.orderBy("created_at", "desc").orderBy("id", "desc").limit(query.limit).execute();
      return withAttachments(ex, rows.reverse());
    }),
  findAttachment: (id) =>
    run(db, (ex) => ex.selectFrom("chat_attachments").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), attachmentFromRow)),
    ),
  markRead: (conversationId, reader, at) =>
    run(db, async (ex) => {
      const result = await ex
        .updateTable("chat_messages")
        .set({ read_at: at })
        .where("conversation_id", "=", conversationId)
        .where("author_kind", "in", [...writtenByOtherSide(reader)])
        .where("read_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    }),
  countUnread: (conversationId, reader) =>
    run(db, (ex) =>
      ex
        .selectFrom("chat_messages")
        .where("conversation_id", "=", conversationId)
        .where("author_kind", "in", [...writtenByOtherSide(reader)])
        .where("read_at", "is", null)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow(),
    ).pipe(Effect.map((r) => Number(r.n))),
  // One UPDATE … RETURNING: concurrent workers (in several processes) each get disjoint rows,
  // since PostgreSQL re-checks `emailed_at is null` on every row it has to wait for.
  claimUnseen: (writtenBy, conversationId, at) =>
    run(db, async (ex) => {
      let update = ex
        .updateTable("chat_messages")
        .set({ emailed_at: at })
        .where("read_at", "is", null)
        .where("emailed_at", "is", null)
        .where("created_at", "<=", writtenBy);
      if (conversationId !== null) update = update.where("conversation_id", "=", conversationId);
      const rows = await update.returningAll().execute();
      rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));
      return withAttachments(ex, rows);
    }),
});

// ---- Visitor tokens -------------------------------------------------------------------------------------

export const makeVisitorTokens = (db: Kysely<Database>): VisitorTokensPort => ({
  insert: (t) =>
    run(db, (ex) =>
      ex.insertInto("chat_visitor_tokens").values({ id: t.id, conversation_id: t.conversationId, digest: t.digest, created_at: t.createdAt, expires_at: t.expiresAt }).execute(),
    ).pipe(Effect.asVoid),
  findByDigest: (digest) =>
    run(db, (ex) => ex.selectFrom("chat_visitor_tokens").selectAll().where("digest", "=", digest).executeTakeFirst()).pipe(
      Effect.map((row) =>
        Option.map(Option.fromNullable(row), (r) => ({ id: r.id, conversationId: r.conversation_id, digest: r.digest, createdAt: r.created_at, expiresAt: r.expires_at })),
      ),
    ),
});

/** The chat ports over `db`. */
export const makeChatLayer = (db: Kysely<Database>) =>
  Layer.mergeAll(
    Layer.succeed(Conversations, makeConversations(db)),
    Layer.succeed(ChatMessages, makeChatMessages(db)),
    Layer.succeed(VisitorTokens, makeVisitorTokens(db)),
  );
