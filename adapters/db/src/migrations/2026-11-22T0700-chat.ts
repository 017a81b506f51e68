import { type Kysely, sql } from "kysely";

/**
 * Support chat (conversations, messages, image attachments, visitor tokens) and live events (one
 * row per event and user, numbered per user by a locked cursor so ids follow commit order).
 * Frozen in time: imports nothing from the app.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("chat_conversations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("visitor_email", "text")
    .addColumn("visitor_name", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("open").check(sql`status in ('open', 'closed')`))
    .addColumn("assignee_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("last_message_at", "timestamptz")
    .addColumn("closed_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // A conversation belongs to a user or to a visitor's e-mail address, never both.
    .addCheckConstraint("chat_conversations_owner", sql`(user_id is null) <> (visitor_email is null)`)
    .addCheckConstraint("chat_conversations_visitor_email_lower", sql`visitor_email = lower(visitor_email)`)
    .execute();
  await sql`create unique index chat_conversations_user_idx on chat_conversations (user_id) where user_id is not null`.execute(db);
  await sql`create unique index chat_conversations_visitor_idx on chat_conversations (visitor_email) where visitor_email is not null`.execute(db);
  await sql`create index chat_conversations_inbox_idx on chat_conversations (status, last_message_at desc)`.execute(db);

  await db.schema
    .createTable("chat_messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) => c.notNull().references("chat_conversations.id").onDelete("cascade"))
    .addColumn("author_kind", "text", (c) => c.notNull().check(sql`author_kind in ('user', 'visitor', 'support')`))
    .addColumn("author_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("read_at", "timestamptz")
    .addColumn("emailed_at", "timestamptz")
    .execute();
  await db.schema.createIndex("chat_messages_conversation_idx").on("chat_messages").columns(["conversation_id", "created_at", "id"]).execute();
  await sql`create index chat_messages_unread_idx on chat_messages (conversation_id, author_kind) where read_at is null`.execute(db);
  await sql`create index chat_messages_unseen_idx on chat_messages (created_at) where read_at is null and emailed_at is null`.execute(db);

  await db.schema
    .createTable("chat_attachments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("message_id", "text", (c) => c.notNull().references("chat_messages.id").onDelete("cascade"))
    .addColumn("conversation_id", "text", (c) => c.notNull().references("chat_conversations.id").onDelete("cascade"))
    .addColumn("blob_key", "text", (c) => c.notNull().unique())
    .addColumn("mime", "text", (c) => c.notNull().check(sql`mime in ('image/png', 'image/jpeg')`))
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("file_name", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("chat_attachments_message_idx").on("chat_attachments").column("message_id").execute();

  await db.schema
    .createTable("chat_visitor_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("conversation_id", "text", (c) => c.notNull().references("chat_conversations.id").onDelete("cascade"))
    .addColumn("digest", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .execute();

  // The last event id per user; the upsert that bumps it holds the row lock until commit, so a
  // user's events get their ids in commit order and a reader never skips one still in flight.
  await db.schema
    .createTable("live_event_cursors")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("last_id", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("live_events")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("id", "bigint", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("data", "jsonb", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("live_events_pkey", ["user_id", "id"])
    .execute();
  await db.schema.createIndex("live_events_created_idx").on("live_events").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("live_events").execute();
  await db.schema.dropTable("live_event_cursors").execute();
  await db.schema.dropTable("chat_visitor_tokens").execute();
  await db.schema.dropTable("chat_attachments").execute();
  await db.schema.dropTable("chat_messages").execute();
  await db.schema.dropTable("chat_conversations").execute();
}
