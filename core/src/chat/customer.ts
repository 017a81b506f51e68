import { Effect, Option } from "effect";
import { type Caller, CurrentUser } from "../accounts/model.ts";
import { isActive } from "../accounts/lifecycle.ts";
import { NotFound } from "../shared/errors.ts";
import { now, Random } from "../shared/ports.ts";
import { throttle } from "../shared/throttle.ts";
import { validate } from "../shared/validation.ts";
import { Notifications } from "../notifications/model.ts";
import { requireCustomer } from "./access.ts";
import { blobOf, markConversationRead, writeInto } from "./delivery.ts";
import { ChatMessages, Conversations, openConversation } from "./model.ts";
import { CHAT_LIMITS, isSupport } from "./policy.ts";
import { presentAll, presentConversation, presentOne } from "./present.ts";
import { CHAT_MESSAGES, ChatMessageRequest, type IncomingImage } from "./requests.ts";

/* A signed-in customer's own conversation with support (the chat widget of the portal). */

/** The caller's conversation (created empty on first use, so the widget has an identifier to show). */
const ownConversation = (caller: Caller) =>
  Effect.gen(function* () {
    const conversations = yield* Conversations;
    const found = yield* conversations.findByUser(caller.user.id);
    if (Option.isSome(found)) return found.value;
    const at = yield* now;
    const fresh = openConversation((yield* Random).identifier(), { userId: caller.user.id, visitorEmail: null, visitorName: null }, at);
    // Two tabs may race to create it: the unique index keeps one, and the loser reads it back.
    yield* Effect.catchAllDefect(conversations.insert(fresh), () => Effect.void);
    return Option.getOrElse(yield* conversations.findByUser(caller.user.id), () => fresh);
  });

export const myConversation = (before: string | null) =>
  Effect.gen(function* () {
    const caller = yield* requireCustomer;
    const found = yield* (yield* Conversations).findByUser(caller.user.id);
    if (Option.isNone(found)) return { conversation: null, messages: [], unread: 0, has_more: false };
    const conversation = found.value;
    const messages = yield* (yield* ChatMessages).list(conversation.id, { before, since: null, limit: CHAT_LIMITS.messagesPerPage + 1 });
    const page = messages.length > CHAT_LIMITS.messagesPerPage ? messages.slice(1) : messages;
    return {
      conversation: presentConversation(conversation),
      messages: yield* presentAll(page, conversation),
      unread: yield* (yield* ChatMessages).countUnread(conversation.id, "customer"),
      has_more: messages.length > CHAT_LIMITS.messagesPerPage,
    };
  });

export const writeMessage = (input: unknown, images: ReadonlyArray<IncomingImage> = []) =>
  Effect.gen(function* () {
    const caller = yield* requireCustomer;
    const { text } = yield* validate(ChatMessageRequest, input);
    yield* throttle(`chat:user:${caller.user.id}`, CHAT_LIMITS.userPerAccount, CHAT_MESSAGES.tooMany);
    const { conversation, message } = yield* writeInto(yield* ownConversation(caller), { kind: "user", id: caller.user.id }, text, images);
    return { conversation: presentConversation(conversation), message: yield* presentOne(message, conversation) };
  });

export const readMyConversation = Effect.gen(function* () {
  const caller = yield* requireCustomer;
  const found = yield* (yield* Conversations).findByUser(caller.user.id);
  if (Option.isNone(found)) return { updated: 0, unread: 0 };
  const updated = yield* markConversationRead(found.value, "customer");
  return { updated, unread: 0 };
});

export const myUnreadCount = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  if (isSupport(user)) return { count: yield* (yield* Conversations).inboxUnread() };
  const found = yield* (yield* Conversations).findByUser(user.id);
  return { count: Option.isNone(found) ? 0 : yield* (yield* ChatMessages).countUnread(found.value.id, "customer") };
});

/** An image of a conversation the caller takes part in (support: any); 404 otherwise. */
export const readAttachment = (id: string) =>
  Effect.gen(function* () {
    const { user } = yield* CurrentUser;
    const missing = NotFound.of("Attachment");
    const attachment = yield* Effect.flatMap((yield* ChatMessages).findAttachment(id), Option.match({ onNone: () => Effect.fail(missing), onSome: Effect.succeed }));
    const conversation = yield* (yield* Conversations).findById(attachment.conversationId);
    const allowed = Option.isSome(conversation) && (isSupport(user) ? isActive(user) : conversation.value.userId === user.id);
    if (!allowed) return yield* missing;
    return yield* blobOf(attachment);
  });

/** What a new event stream starts with: the counts the bell and the chat badge show. */
export const liveSnapshot = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  const chat = yield* myUnreadCount;
  const notifications = yield* Effect.serviceOption(Notifications);
  return {
    chat_unread: chat.count,
    notifications_unread: Option.isSome(notifications) ? yield* notifications.value.countUnread(user.id) : 0,
  };
});
