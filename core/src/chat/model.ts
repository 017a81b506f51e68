import { Context, Effect, Option } from "effect";
import type { User } from "../accounts/model.ts";
import type { PageOf, PageRequest } from "../shared/page.ts";

/**
 * Support chat: one conversation per signed-in user, or per visitor e-mail address (public pages),
 * with Crown's support team (admins and reviewers). Messages, image attachments and read receipts
 * live in PostgreSQL; live delivery goes through the live events.
 */

export type ConversationStatus = "open" | "closed";
/** Who wrote a message: the conversation's user, its visitor, or someone of the support team. */
export type AuthorKind = "user" | "visitor" | "support";
/** The two sides of a conversation, for read receipts and unread counts. */
export type ChatSide = "customer" | "support";

export const sideOf = (kind: AuthorKind): ChatSide => (kind === "support" ? "support" : "customer");

export interface Conversation {
  readonly id: string;
  /** The signed-in user it belongs to; null for a visitor's conversation. */
  readonly userId: string | null;
  /** A visitor's e-mail address (lower case); null for a user's conversation. */
  readonly visitorEmail: string | null;
  readonly visitorName: string | null;
  readonly status: ConversationStatus;
  readonly assigneeId: string | null;
  readonly lastMessageAt: Date | null;
  readonly closedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
/** A new, open conversation with nobody assigned and no message yet. */
export const openConversation = (id: string, owner: Pick<Conversation, "userId" | "visitorEmail" | "visitorName">, at: Date): Conversation => ({
  id,
  ...owner,
  status: "open",
  assigneeId: null,
  lastMessageAt: null,
  closedAt: null,
  createdAt: at,
  updatedAt: at,
});
export type ConversationPatch = Partial<Pick<Conversation, "status" | "assigneeId" | "lastMessageAt" | "closedAt" | "visitorName" | "updatedAt">>;

export interface ChatAttachment {
  readonly id: string;
  readonly messageId: string;
  readonly conversationId: string;
  readonly blobKey: string;
  /** Decided by the bytes: image/png or image/jpeg. */
  readonly mime: string;
  readonly size: number;
  /** The name the client gave (display only). */
  readonly fileName: string;
  readonly createdAt: Date;
}

export interface ChatMessage {
  readonly id: string;
  readonly conversationId: string;
  readonly authorKind: AuthorKind;
  /** The user who wrote it (user or support); null for a visitor. */
  readonly authorId: string | null;
  readonly text: string;
  readonly attachments: ReadonlyArray<ChatAttachment>;
  readonly createdAt: Date;
  /** When the other side read it (the read receipt). */
  readonly readAt: Date | null;
  /** When it was e-mailed to the other side because it stayed unseen; set once. */
  readonly emailedAt: Date | null;
}

/** A visitor's access to its conversation: it reaches the messages written since it was issued. */
export interface VisitorToken {
  readonly id: string;
  readonly conversationId: string;
  readonly digest: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** One row of the support inbox. */
export interface InboxEntry {
  readonly conversation: Conversation;
  /** Customer messages support has not read. */
  readonly unread: number;
  readonly lastMessage: ChatMessage | null;
  readonly user: User | null;
}

export interface InboxQuery {
  readonly status: ConversationStatus | "all";
  /** Only conversations assigned to this support user. */
  readonly assigneeId: string | null;
}

export interface ConversationsPort {
  readonly insert: (conversation: Conversation) => Effect.Effect<void>;
  readonly findById: (id: string) => Effect.Effect<Option.Option<Conversation>>;
  /** The conversation, locked for the rest of the transaction (SELECT … FOR UPDATE). */
  readonly lock: (id: string) => Effect.Effect<Option.Option<Conversation>>;
  readonly findByUser: (userId: string) => Effect.Effect<Option.Option<Conversation>>;
  readonly update: (id: string, patch: ConversationPatch) => Effect.Effect<void>;
  /** Unread first, then the latest message first. */
  readonly inbox: (query: InboxQuery, page: PageRequest) => Effect.Effect<PageOf<InboxEntry>>;
  /** How many conversations have customer messages support has not read. */
  readonly inboxUnread: () => Effect.Effect<number>;
  /** Active admins and reviewers: the support team. */
  readonly supportTeam: () => Effect.Effect<ReadonlyArray<User>>;
}
export class Conversations extends Context.Tag("crown/Conversations")<Conversations, ConversationsPort>() {}

export interface ChatMessagesPort {
  /** Inserts the message and its attachments. */
  readonly insert: (message: ChatMessage) => Effect.Effect<void>;
  /**
   * A conversation's messages, oldest first: the newest `limit` of them, those before message
   * `before` when given, and none written before `since` when given (visitor tokens).
   */
  readonly list: (conversationId: string, query: { before: string | null; since: Date | null; limit: number }) => Effect.Effect<ReadonlyArray<ChatMessage>>;
  readonly findAttachment: (id: string) => Effect.Effect<Option.Option<ChatAttachment>>;
  /** Sets `readAt` on the messages of the other side than `reader`; answers how many changed. */
  readonly markRead: (conversationId: string, reader: ChatSide, at: Date) => Effect.Effect<number>;
  /** Messages of the other side than `reader` not read yet. */
  readonly countUnread: (conversationId: string, reader: ChatSide) => Effect.Effect<number>;
  /**
   * Marks e-mailed, in one statement, every message still unread and not e-mailed that was written
   * at or before `writtenBy` (only in `conversationId` when given), and answers them: a message is
   * claimed by one caller only, so it is never e-mailed twice.
   */
  readonly claimUnseen: (writtenBy: Date, conversationId: string | null, at: Date) => Effect.Effect<ReadonlyArray<ChatMessage>>;
}
export class ChatMessages extends Context.Tag("crown/ChatMessages")<ChatMessages, ChatMessagesPort>() {}

export interface VisitorTokensPort {
  readonly insert: (token: VisitorToken) => Effect.Effect<void>;
  readonly findByDigest: (digest: string) => Effect.Effect<Option.Option<VisitorToken>>;
}
export class VisitorTokens extends Context.Tag("crown/VisitorTokens")<VisitorTokens, VisitorTokensPort>() {}

/** Chat settings, from the environment. */
export interface ChatSettings {
  /** An unread message is e-mailed to the other side after this long (`CHAT_EMAIL_DELAY_SECONDS`). */
  readonly emailDelaySeconds: number;
  readonly visitorTokenTtlSeconds: number;
}
export const defaultChatSettings: ChatSettings = { emailDelaySeconds: 15 * 60, visitorTokenTtlSeconds: 30 * 24 * 3600 };
export class ChatConfig extends Context.Tag("crown/ChatConfig")<ChatConfig, ChatSettings>() {}
