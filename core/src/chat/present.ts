import { Effect, Option } from "effect";
import { Users } from "../accounts/model.ts";
import { type ChatAttachment, type ChatMessage, type Conversation, sideOf } from "./model.ts";
import { isSupport } from "./policy.ts";

/** The wire shapes of the chat: what the portal, the support inbox and the public widget read. */

export const attachmentUrl = (a: Pick<ChatAttachment, "id">, visitor = false) =>
  visitor ? `/api/v1/en/chat/visitor/attachments/${a.id}` : `/api/v1/en/chat/attachments/${a.id}`;

const authorName = (m: ChatMessage, names: ReadonlyMap<string, string>, conversation: Conversation) => {
  if (m.authorKind === "support") return names.get(m.authorId ?? "") ?? "Crown support";
  if (m.authorKind === "visitor") return conversation.visitorName ?? conversation.visitorEmail ?? "Visitor";
  return names.get(m.authorId ?? "") ?? "You";
};

export const presentMessage = (m: ChatMessage, conversation: Conversation, names: ReadonlyMap<string, string>, visitor = false) => ({
  identifier: m.id,
  conversation_identifier: m.conversationId,
  author: { kind: m.authorKind, name: authorName(m, names, conversation) },
  side: sideOf(m.authorKind),
  text: m.text,
  attachments: m.attachments.map((a) => ({ identifier: a.id, file_name: a.fileName, mime: a.mime, size: a.size, url: attachmentUrl(a, visitor) })),
  created_at: m.createdAt.toISOString(),
  read_at: m.readAt?.toISOString() ?? null,
});
export type PresentedMessage = ReturnType<typeof presentMessage>;

export const presentConversation = (c: Conversation) => ({
  identifier: c.id,
  status: c.status,
  user_identifier: c.userId,
  visitor_email: c.visitorEmail,
  visitor_name: c.visitorName,
  assignee_identifier: c.assigneeId,
  last_message_at: c.lastMessageAt?.toISOString() ?? null,
  closed_at: c.closedAt?.toISOString() ?? null,
  created_at: c.createdAt.toISOString(),
});
export type PresentedConversation = ReturnType<typeof presentConversation>;

/** First names (and "Crown support" for the team) of the users who wrote these messages. */
export const namesOf = (messages: ReadonlyArray<ChatMessage>) =>
  Effect.gen(function* () {
    const users = yield* Users;
    const names = new Map<string, string>();
    for (const id of new Set(messages.map((m) => m.authorId).filter((id): id is string => id !== null))) {
      const user = yield* users.findById(id);
      if (Option.isSome(user)) {
        names.set(id, isSupport(user.value) ? `${user.value.firstName} (Crown support)` : `${user.value.firstName} ${user.value.lastName}`.trim());
      }
    }
    return names;
  });

export const presentAll = (messages: ReadonlyArray<ChatMessage>, conversation: Conversation, visitor = false) =>
  Effect.map(namesOf(messages), (names) => messages.map((m) => presentMessage(m, conversation, names, visitor)));

/** One freshly written message, as its author's answer shows it. */
export const presentOne = (message: ChatMessage, conversation: Conversation, visitor = false) =>
  Effect.map(presentAll([message], conversation, visitor), (all) => all[0]!);
