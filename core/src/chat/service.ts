import { Effect, Option, Schema } from "effect";
import { type Caller, CurrentUser, type User, Users } from "../accounts/model.ts";
import { publish, publishToAll } from "../live/service.ts";
import { Babies, babyName } from "../onboarding/model.ts";
import { Notifications } from "../notifications/model.ts";
import { pageOf } from "../notifications/service.ts";
import { requireActive } from "../practice/access.ts";
import { Reports } from "../report/model.ts";
import { queueMail } from "../shared/mail-jobs.ts";
import { Forbidden, NotFound, RateLimited, TooLarge, ValidationFailed } from "../shared/errors.ts";
import { audit, BlobStore, ContentSniffer, now, Random, RateLimiter, RequestContext, Secrets, transaction } from "../shared/ports.ts";
import { Email, validate } from "../shared/validation.ts";
import { AccountsConfig } from "../accounts/model.ts";
import { unseenMailToCustomer, unseenMailToSupport } from "./emails.ts";
import {
  type AuthorKind,
  type ChatAttachment,
  ChatConfig,
  type ChatMessage,
  ChatMessages,
  type ChatSide,
  type Conversation,
  Conversations,
  type InboxQuery,
  sideOf,
  VisitorTokens,
} from "./model.ts";

export const CHAT_MESSAGES = {
  conversation: "Conversation fetched successfully",
  sent: "Message sent successfully",
  read: "Messages marked as read",
  emailed: "Unseen messages e-mailed",
  token: "Chat token",
  inbox: "Conversations fetched successfully",
  assigned: "Conversation assigned",
  closed: "Conversation closed",
  reopened: "Conversation reopened",
  empty: "Please write a message or attach an image.",
  tooLong: "A message must be at most 5000 characters.",
  imageType: "Only PNG or JPEG images can be attached.",
  imageTooLarge: "An image must be at most 10 MB.",
  tooManyImages: "At most 4 images can be attached to a message.",
  notSupport: "The support team answers from the support inbox.",
  assigneeNotSupport: "A conversation can only be assigned to an admin or a reviewer.",
  visitorToken: "This chat link is invalid or has expired. Please start a new conversation.",
  tooMany: "Too many messages. Please try again later.",
} as const;

export const CHAT_LIMITS = {
  textMax: 5000,
  imageMaxBytes: 10 * 1024 * 1024,
  imagesPerMessage: 4,
  /** Visitors (public pages): per address and per e-mail, shared across processes. */
  visitorPerAddress: { limit: 20, windowSeconds: 60 * 60 },
  visitorPerEmail: { limit: 20, windowSeconds: 60 * 60 },
  visitorStartsPerAddress: { limit: 5, windowSeconds: 60 * 60 },
  /** Signed-in users: generous, against scripts rather than people. */
  userPerAccount: { limit: 120, windowSeconds: 60 * 60 },
  messagesPerPage: 50,
} as const;

const SUPPORT_TYPES = ["admin", "reviewer"] as const;
export const isSupport = (user: Pick<User, "type">) => user.type === "admin" || user.type === "reviewer";

/** An image sent with a message, as the adapter received it. */
export interface IncomingImage {
  readonly bytes: Uint8Array;
  readonly fileName: string;
}

// ---- Presenters ------------------------------------------------------------------------------------

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

/** First names (and "Crown support" for the team) of the users who wrote these messages. */
const namesOf = (messages: ReadonlyArray<ChatMessage>) =>
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

const presentAll = (messages: ReadonlyArray<ChatMessage>, conversation: Conversation, visitor = false) =>
  Effect.map(namesOf(messages), (names) => messages.map((m) => presentMessage(m, conversation, names, visitor)));

// ---- Shared steps ----------------------------------------------------------------------------------

const clientAddress = Effect.map(Effect.serviceOption(RequestContext), (r) => (Option.isSome(r) ? r.value.ip ?? "unknown" : "local"));

const throttle = (key: string, rule: { limit: number; windowSeconds: number }) =>
  Effect.gen(function* () {
    const verdict = yield* (yield* RateLimiter).hit(key, rule.limit, rule.windowSeconds, yield* now);
    if (!verdict.allowed) return yield* new RateLimited({ message: CHAT_MESSAGES.tooMany, retryAfterSeconds: verdict.retryAfterSeconds });
  });

const TextField = Schema.optionalWith(
  Schema.String.pipe(Schema.maxLength(CHAT_LIMITS.textMax)).annotations({ message: () => ({ message: CHAT_MESSAGES.tooLong, override: true }) }),
  { nullable: true, default: () => "" },
);
export const ChatMessageRequest = Schema.Struct({ text: TextField });
export const VisitorMessageRequest = Schema.Struct({
  email: Email,
  name: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(100)).annotations({ message: () => ({ message: "Name must be at most 100 characters", override: true }) }), {
    nullable: true,
  }),
  text: TextField,
});
export const AssignRequest = Schema.Struct({ assignee_identifier: Schema.optionalWith(Schema.String, { nullable: true }) });

/**
 * Checks the images like uploads (type by the bytes: PNG or JPEG only; at most 10 MB) and stores
 * them. Answers the attachments to record and a way to remove the blobs if the message fails.
 */
const storeImages = (conversationId: string, messageId: string, images: ReadonlyArray<IncomingImage>, at: Date) =>
  Effect.gen(function* () {
    if (images.length > CHAT_LIMITS.imagesPerMessage) return yield* ValidationFailed.field("images", CHAT_MESSAGES.tooManyImages);
    const sniffer = yield* ContentSniffer;
    const random = yield* Random;
    const checked: Array<{ image: IncomingImage; mime: string; ext: string }> = [];
    for (const image of images) {
      if (image.bytes.length > CHAT_LIMITS.imageMaxBytes) return yield* new TooLarge({ message: CHAT_MESSAGES.imageTooLarge });
      const kind = yield* sniffer.sniff(image.bytes.subarray(0, 4100));
      if (Option.isNone(kind) || (kind.value.mime !== "image/png" && kind.value.mime !== "image/jpeg")) {
        return yield* ValidationFailed.field("images", CHAT_MESSAGES.imageType);
      }
      checked.push({ image, mime: kind.value.mime, ext: kind.value.ext });
    }
    const blobs = yield* BlobStore;
    const stored: ChatAttachment[] = [];
    for (const { image, mime, ext } of checked) {
      const id = random.identifier();
      const blobKey = `chat/${conversationId}/${id}.${ext}`;
      yield* blobs.put(blobKey, image.bytes, mime);
      stored.push({ id, messageId, conversationId, blobKey, mime, size: image.bytes.length, fileName: image.fileName.slice(0, 200) || `image.${ext}`, createdAt: at });
    }
    return { attachments: stored, discard: Effect.forEach(stored, (a) => blobs.remove(a.blobKey), { discard: true }) };
  });

/** Unread counts and live events after a message: the conversation's user and the whole team hear of it. */
const announceMessage = (conversation: Conversation, message: ChatMessage) =>
  Effect.gen(function* () {
    const team = (yield* (yield* Conversations).supportTeam()).map((u) => u.id);
    const presented = (yield* presentAll([message], conversation))[0]!;
    const data = { conversation: presentConversation(conversation), message: presented };
    if (conversation.userId !== null) yield* publish(conversation.userId, "chat.message", data);
    yield* publishToAll(team, "chat.message", data);
    yield* announceUnread(conversation, sideOf(message.authorKind) === "support" ? "customer" : "support", team);
  });

/** Publishes the unread count of one side: the user's own count, or the inbox count to the team. */
const announceUnread = (conversation: Conversation, side: ChatSide, team?: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    if (side === "customer") {
      if (conversation.userId === null) return;
      const count = yield* (yield* ChatMessages).countUnread(conversation.id, "customer");
      yield* publish(conversation.userId, "chat.unread", { count });
      return;
    }
    const members = team ?? (yield* (yield* Conversations).supportTeam()).map((u) => u.id);
    yield* publishToAll(members, "chat.unread", { count: yield* (yield* Conversations).inboxUnread() });
  });

/** Writes one message (and its images) into a conversation, in one transaction with its live events. */
const writeInto = (
  target: Conversation,
  author: { kind: AuthorKind; id: string | null },
  text: string,
  images: ReadonlyArray<IncomingImage>,
) =>
  Effect.gen(function* () {
    if (text === "" && images.length === 0) return yield* ValidationFailed.field("text", CHAT_MESSAGES.empty);
    const random = yield* Random;
    const at = yield* now;
    const messageId = random.identifier();
    // The blobs go first (a message never names a missing file); they are removed if the message fails.
    const pending = target.id;
    const { attachments, discard } = yield* storeImages(pending, messageId, images, at);
    const write = transaction(
      Effect.gen(function* () {
        const conversations = yield* Conversations;
        const locked = yield* conversations.lock(pending);
        const conversation = Option.getOrThrow(locked);
        const message: ChatMessage = { id: messageId, conversationId: conversation.id, authorKind: author.kind, authorId: author.id, text, attachments, createdAt: at, readAt: null, emailedAt: null };
        yield* (yield* ChatMessages).insert(message);
        // A customer writing again reopens a closed conversation; a support reply also counts as reading.
        const reopened = conversation.status === "closed" && author.kind !== "support";
        const patch = { lastMessageAt: at, updatedAt: at, ...(reopened ? { status: "open" as const, closedAt: null } : {}) };
        yield* conversations.update(conversation.id, patch);
        const updated: Conversation = { ...conversation, ...patch };
        yield* announceMessage(updated, message);
        if (author.kind === "support") yield* readAndAnnounce(updated, "support", at);
        return { conversation: updated, message };
      }),
    );
    return yield* Effect.tapErrorCause(write, () => discard);
  });

// ---- Signed-in users ---------------------------------------------------------------------------------

const requireCustomer = Effect.gen(function* () {
  const caller = yield* CurrentUser;
  if (isSupport(caller.user)) return yield* new Forbidden({ message: CHAT_MESSAGES.notSupport });
  return caller;
});

/** The caller's conversation (created empty on first use, so the widget has an identifier to show). */
const ownConversation = (caller: Caller) =>
  Effect.gen(function* () {
    const conversations = yield* Conversations;
    const found = yield* conversations.findByUser(caller.user.id);
    if (Option.isSome(found)) return found.value;
    const at = yield* now;
    const fresh: Conversation = {
      id: (yield* Random).identifier(),
      userId: caller.user.id,
      visitorEmail: null,
      visitorName: null,
      status: "open",
      assigneeId: null,
      lastMessageAt: null,
      closedAt: null,
      createdAt: at,
      updatedAt: at,
    };
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
    yield* throttle(`chat:user:${caller.user.id}`, CHAT_LIMITS.userPerAccount);
    const { conversation, message } = yield* writeInto(yield* ownConversation(caller), { kind: "user", id: caller.user.id }, text, images);
    return { conversation: presentConversation(conversation), message: (yield* presentAll([message], conversation))[0]! };
  });

/** Marks the other side's messages read and, when that changed anything, sends the read receipt and new counts. */
const readAndAnnounce = (conversation: Conversation, reader: ChatSide, at: Date) =>
  Effect.gen(function* () {
    const changed = yield* (yield* ChatMessages).markRead(conversation.id, reader, at);
    if (changed > 0) {
      const receipt = { conversation_identifier: conversation.id, reader, read_at: at.toISOString() };
      const team = (yield* (yield* Conversations).supportTeam()).map((u) => u.id);
      if (conversation.userId !== null) yield* publish(conversation.userId, "chat.read", receipt);
      yield* publishToAll(team, "chat.read", receipt);
      yield* announceUnread(conversation, reader, team);
    }
    return changed;
  });

/** Read receipts: marks the other side's messages read and tells both sides (and the reader's other tabs). */
const markConversationRead = (conversation: Conversation, reader: ChatSide) =>
  Effect.gen(function* () {
    const at = yield* now;
    return yield* transaction(readAndAnnounce(conversation, reader, at));
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
    const allowed = Option.isSome(conversation) && (isSupport(user) ? user.status === "Active" : conversation.value.userId === user.id);
    if (!allowed) return yield* missing;
    return yield* blobOf(attachment);
  });

const blobOf = (attachment: ChatAttachment) =>
  Effect.gen(function* () {
    const blob = yield* (yield* BlobStore).get(attachment.blobKey);
    if (Option.isNone(blob)) return yield* NotFound.of("Attachment");
    return { ...blob.value, fileName: attachment.fileName };
  });

// ---- Unseen messages by e-mail ----------------------------------------------------------------------

/**
 * E-mails the messages that stayed unread: support's replies to the user (or visitor), customers'
 * messages to the assignee (or the whole team when nobody is assigned). One short transaction
 * claims the messages (marks them e-mailed) and queues one e-mail per recipient with them; the job
 * worker sends each outside any transaction and retries a failed send with backoff, so one
 * recipient's failing mail server neither re-sends the others' e-mails nor loses its own, and no
 * database connection waits on SMTP (docs/adr/0015-mail-through-job-queue.md). Answers how many
 * messages were claimed.
 */
const mailUnseen = (writtenBy: Date, conversationId: string | null) =>
  Effect.gen(function* () {
    const at = yield* now;
    const config = yield* AccountsConfig;
    return yield* transaction(
      Effect.gen(function* () {
        const claimed = yield* (yield* ChatMessages).claimUnseen(writtenBy, conversationId, at);
        if (claimed.length === 0) return 0;
        const conversations = yield* Conversations;
        const users = yield* Users;
        const byConversation = new Map<string, ChatMessage[]>();
        for (const m of claimed) byConversation.set(m.conversationId, [...(byConversation.get(m.conversationId) ?? []), m]);
        let team: ReadonlyArray<User> | null = null;
        for (const [id, messages] of byConversation) {
          const conversation = yield* conversations.findById(id);
          if (Option.isNone(conversation)) continue;
          const c = conversation.value;
          const names = yield* namesOf(messages);
          const fromSupport = messages.filter((m) => m.authorKind === "support");
          const fromCustomer = messages.filter((m) => m.authorKind !== "support");
          if (fromSupport.length > 0) {
            const user = c.userId !== null ? yield* users.findById(c.userId) : Option.none();
            const to = Option.isSome(user) ? user.value.email : c.visitorEmail;
            if (to) {
              const firstName = Option.isSome(user) ? user.value.firstName : c.visitorName ?? "";
              const url = Option.isSome(user) ? `${config.publicUrl}/dashboard?chat=open` : `${config.publicUrl}/?chat=open`;
              yield* queueMail(unseenMailToCustomer(to, firstName, fromSupport.map((m) => ({ from: names.get(m.authorId ?? "") ?? "Crown support", text: m.text, images: m.attachments.length })), url));
            }
          }
          if (fromCustomer.length > 0) {
            const assignee = c.assigneeId !== null ? yield* users.findById(c.assigneeId) : Option.none();
            const recipients = Option.isSome(assignee) && isSupport(assignee.value) ? [assignee.value] : (team ??= yield* conversations.supportTeam());
            const who = c.userId !== null ? names.get(c.userId) ?? "A user" : c.visitorName ?? c.visitorEmail ?? "A visitor";
            for (const member of recipients) {
              yield* queueMail(
                unseenMailToSupport(member.email, member.firstName, who, fromCustomer.map((m) => ({ text: m.text, images: m.attachments.length })), `${config.publicUrl}/support?conversation=${c.id}`),
              );
            }
          }
        }
        return claimed.length;
      }),
    );
  });

/** For the worker: e-mails what stayed unread longer than the configured delay. */
export const mailUnseenMessages = Effect.gen(function* () {
  const config = yield* ChatConfig;
  const at = yield* now;
  return yield* mailUnseen(new Date(at.getTime() - config.emailDelaySeconds * 1000), null);
});

/** `POST /chat/messages`: e-mails the unseen messages of the caller's conversation now. */
export const mailUnseenNow = Effect.gen(function* () {
  const caller = yield* requireCustomer;
  const found = yield* (yield* Conversations).findByUser(caller.user.id);
  if (Option.isNone(found)) return { emailed: 0 };
  return { emailed: yield* mailUnseen(yield* now, found.value.id) };
});

// ---- Visitors (public pages) -------------------------------------------------------------------------

const visitorAccess = (token: string | null) =>
  Effect.gen(function* () {
    const invalid = new NotFound({ message: CHAT_MESSAGES.visitorToken });
    if (!token) return yield* invalid;
    const found = yield* (yield* VisitorTokens).findByDigest((yield* Secrets).digest(token));
    if (Option.isNone(found) || found.value.expiresAt.getTime() <= (yield* now).getTime()) return yield* invalid;
    const conversation = yield* (yield* Conversations).findById(found.value.conversationId);
    if (Option.isNone(conversation)) return yield* invalid;
    return { token: found.value, conversation: conversation.value };
  });

/**
 * A visitor writes with an e-mail address. With its token (kept in the visitor's own browser) it
 * writes into its conversation; without, it starts a new conversation and gets its token. Knowing
 * an address therefore never joins someone else's conversation (ADR 22).
 */
export const visitorWrite = (input: unknown, token: string | null) =>
  Effect.gen(function* () {
    const request = yield* validate(VisitorMessageRequest, input);
    const email = request.email.toLowerCase();
    const address = yield* clientAddress;
    yield* throttle(`chat:visitor:addr:${address}`, CHAT_LIMITS.visitorPerAddress);
    yield* throttle(`chat:visitor:mail:${email}`, CHAT_LIMITS.visitorPerEmail);
    if (token) {
      const access = yield* visitorAccess(token);
      if (access.conversation.visitorEmail !== email) return yield* new NotFound({ message: CHAT_MESSAGES.visitorToken });
      const { conversation, message } = yield* writeInto(access.conversation, { kind: "visitor", id: null }, request.text, []);
      return { token: null, conversation: presentConversation(conversation), message: (yield* presentAll([message], conversation, true))[0]! };
    }
    yield* throttle(`chat:visitor:start:${address}`, CHAT_LIMITS.visitorStartsPerAddress);
    const random = yield* Random;
    const at = yield* now;
    const conversations = yield* Conversations;
    const conversation: Conversation = {
      id: random.identifier(),
      userId: null,
      visitorEmail: email,
      visitorName: request.name ?? null,
      status: "open",
      assigneeId: null,
      lastMessageAt: null,
      closedAt: null,
      createdAt: at,
      updatedAt: at,
    };
    const secret = random.secret(32);
    const settings = yield* ChatConfig;
    yield* transaction(
      Effect.gen(function* () {
        yield* conversations.insert(conversation);
        yield* (yield* VisitorTokens).insert({
          id: random.identifier(),
          conversationId: conversation.id,
          digest: (yield* Secrets).digest(secret),
          createdAt: at,
          expiresAt: new Date(at.getTime() + settings.visitorTokenTtlSeconds * 1000),
        });
        yield* audit({ action: "chat.visitor_started", actorId: null, subjectId: conversation.id, details: { email } });
      }),
    );
    const written = yield* writeInto(conversation, { kind: "visitor", id: null }, request.text, []);
    return { token: secret, conversation: presentConversation(written.conversation), message: (yield* presentAll([written.message], written.conversation, true))[0]! };
  });

export const visitorConversation = (token: string | null) =>
  Effect.gen(function* () {
    const { token: access, conversation } = yield* visitorAccess(token);
    const messages = yield* (yield* ChatMessages).list(conversation.id, { before: null, since: access.createdAt, limit: CHAT_LIMITS.messagesPerPage });
    return {
      conversation: { identifier: conversation.id, status: conversation.status, visitor_email: conversation.visitorEmail, visitor_name: conversation.visitorName },
      messages: yield* presentAll(messages, conversation, true),
    };
  });

export const visitorRead = (token: string | null) =>
  Effect.gen(function* () {
    const { conversation } = yield* visitorAccess(token);
    return { updated: yield* markConversationRead(conversation, "customer") };
  });

export const visitorAttachment = (token: string | null, id: string) =>
  Effect.gen(function* () {
    const { token: access, conversation } = yield* visitorAccess(token);
    const attachment = yield* (yield* ChatMessages).findAttachment(id);
    if (Option.isNone(attachment) || attachment.value.conversationId !== conversation.id || attachment.value.createdAt < access.createdAt) {
      return yield* NotFound.of("Attachment");
    }
    return yield* blobOf(attachment.value);
  });

// ---- Support inbox -------------------------------------------------------------------------------

const requireSupport = requireActive(...SUPPORT_TYPES);

const conversationForSupport = (id: string) =>
  Effect.flatMap(Conversations, (c) =>
    Effect.flatMap(c.findById(id), Option.match({ onNone: () => Effect.fail(NotFound.of("Conversation")), onSome: Effect.succeed })),
  );

const InboxFilter = Schema.Struct({
  status: Schema.optionalWith(Schema.Literal("open", "closed", "all").annotations({ message: () => ({ message: "Status must be one of open, closed or all", override: true }) }), { nullable: true }),
  mine: Schema.optionalWith(Schema.Union(Schema.Boolean, Schema.Literal("1", "0", "true", "false")), { nullable: true }),
  per_page: Schema.optionalWith(
    Schema.Union(Schema.Number, Schema.NumberFromString).pipe(Schema.filter((n) => Number.isInteger(n) && n >= 1 && n <= 100)).annotations({
      message: () => ({ message: "Per page must be a whole number between 1 and 100", override: true }),
    }),
    { nullable: true },
  ),
});

/** Conversations by user, unread first, then by the latest message. */
export const inbox = (page: number, query: unknown) =>
  Effect.gen(function* () {
    yield* requireSupport;
    const filter = yield* validate(InboxFilter, query);
    const { user } = yield* CurrentUser;
    const perPage = filter.per_page ?? 20;
    const mine = filter.mine === true || filter.mine === "1" || filter.mine === "true";
    const q: InboxQuery = { status: filter.status ?? "open", assigneeId: mine ? user.id : null };
    const result = yield* (yield* Conversations).inbox(q, { page, perPage });
    const lastMessages = result.data.flatMap((e) => (e.lastMessage ? [e.lastMessage] : []));
    const names = yield* namesOf(lastMessages);
    const rows = result.data.map((e) => ({
      ...presentConversation(e.conversation),
      unread: e.unread,
      user: e.user ? { identifier: e.user.id, first_name: e.user.firstName, last_name: e.user.lastName, email: e.user.email, type: e.user.type } : null,
      last_message: e.lastMessage ? presentMessage(e.lastMessage, e.conversation, names) : null,
    }));
    return { ...pageOf(rows, result.total, page, perPage), unread_conversations: yield* (yield* Conversations).inboxUnread() };
  });

/**
 * What support sees beside a conversation: the user's babies and latest reports. Every read is
 * audited (it is a read of patients' records).
 */
const contextOf = (conversation: Conversation, reader: string) =>
  Effect.gen(function* () {
    if (conversation.userId === null) return null;
    const user = yield* (yield* Users).findById(conversation.userId);
    if (Option.isNone(user)) return null;
    const u = user.value;
    const babies = yield* Effect.serviceOption(Babies);
    const list = Option.isNone(babies)
      ? []
      : u.type === "parent"
        ? yield* babies.value.listByParent(u.id)
        : u.type === "physician"
          ? (yield* babies.value.listByPhysician(u.id, null, { page: 1, perPage: 10 })).data
          : [];
    const reports = yield* Effect.serviceOption(Reports);
    const latest: Array<Record<string, unknown>> = [];
    if (Option.isSome(reports)) {
      for (const baby of list.slice(0, 10)) {
        const page = yield* reports.value.uploadsForBaby(baby.id, { page: 1, perPage: 3 });
        for (const r of page.data) {
          latest.push({
            identifier: r.id,
            baby_identifier: r.babyId,
            baby_name: r.babyName,
            status: r.status,
            submitted_at: r.submittedAt?.toISOString() ?? null,
            published_at: r.publishedAt?.toISOString() ?? null,
          });
        }
      }
    }
    yield* audit({
      action: "chat.context_read",
      actorId: reader,
      subjectId: u.id,
      details: { conversation: conversation.id, babies: list.map((b) => b.id), reports: latest.map((r) => r.identifier) },
    });
    return {
      user: { identifier: u.id, first_name: u.firstName, last_name: u.lastName, email: u.email, phone: u.phone, type: u.type, status: u.status, created_at: u.createdAt.toISOString() },
      babies: list.map((b) => ({ identifier: b.id, name: babyName(b), date_of_birth: b.dateOfBirth, physician_identifier: b.physicianId })),
      reports: latest.sort((a, b) => String(b.submitted_at ?? "").localeCompare(String(a.submitted_at ?? ""))).slice(0, 10),
    };
  });

/** Opens a conversation in the inbox: its messages (now read by support) and the user's context. */
export const supportConversation = (id: string, before: string | null) =>
  Effect.gen(function* () {
    const caller = yield* requireSupport;
    const conversation = yield* conversationForSupport(id);
    const messages = yield* (yield* ChatMessages).list(conversation.id, { before, since: null, limit: CHAT_LIMITS.messagesPerPage + 1 });
    const page = messages.length > CHAT_LIMITS.messagesPerPage ? messages.slice(1) : messages;
    if (before === null) yield* markConversationRead(conversation, "support");
    return {
      conversation: presentConversation(conversation),
      messages: yield* presentAll(page, conversation),
      has_more: messages.length > CHAT_LIMITS.messagesPerPage,
      context: yield* contextOf(conversation, caller.user.id),
    };
  });

export const supportReply = (id: string, input: unknown, images: ReadonlyArray<IncomingImage> = []) =>
  Effect.gen(function* () {
    const caller = yield* requireSupport;
    const { text } = yield* validate(ChatMessageRequest, input);
    const conversation = yield* conversationForSupport(id);
    const { conversation: updated, message } = yield* writeInto(conversation, { kind: "support", id: caller.user.id }, text, images);
    // Nobody assigned yet: whoever answers takes it.
    if (updated.assigneeId === null) yield* assignTo(updated, caller.user.id, caller.user.id);
    return { conversation: presentConversation({ ...updated, assigneeId: updated.assigneeId ?? caller.user.id }), message: (yield* presentAll([message], updated))[0]! };
  });

const assignTo = (conversation: Conversation, assigneeId: string | null, actorId: string) =>
  transaction(
    Effect.gen(function* () {
      const at = yield* now;
      yield* (yield* Conversations).update(conversation.id, { assigneeId, updatedAt: at });
      const updated = { ...conversation, assigneeId, updatedAt: at };
      const team = (yield* (yield* Conversations).supportTeam()).map((u) => u.id);
      yield* publishToAll(team, "chat.conversation", { conversation: presentConversation(updated) });
      yield* audit({ action: "chat.assigned", actorId, subjectId: conversation.id, details: { assignee: assigneeId } });
      return updated;
    }),
  );

/** Assigns to `assignee_identifier` (an admin or reviewer), to the caller when none is given, or unassigns with "". */
export const assign = (id: string, input: unknown) =>
  Effect.gen(function* () {
    const caller = yield* requireSupport;
    const request = yield* validate(AssignRequest, input);
    const conversation = yield* conversationForSupport(id);
    const assigneeId = request.assignee_identifier === undefined ? caller.user.id : request.assignee_identifier === "" ? null : request.assignee_identifier;
    if (assigneeId !== null && assigneeId !== caller.user.id) {
      const assignee = yield* (yield* Users).findById(assigneeId);
      if (Option.isNone(assignee) || !isSupport(assignee.value) || assignee.value.status !== "Active") {
        return yield* ValidationFailed.field("assignee_identifier", CHAT_MESSAGES.assigneeNotSupport);
      }
    }
    return presentConversation(yield* assignTo(conversation, assigneeId, caller.user.id));
  });

const setStatus = (id: string, status: "open" | "closed") =>
  Effect.gen(function* () {
    const caller = yield* requireSupport;
    const conversation = yield* conversationForSupport(id);
    const at = yield* now;
    return yield* transaction(
      Effect.gen(function* () {
        const patch = { status, closedAt: status === "closed" ? at : null, updatedAt: at };
        yield* (yield* Conversations).update(conversation.id, patch);
        const updated = { ...conversation, ...patch };
        const data = { conversation: presentConversation(updated) };
        const team = (yield* (yield* Conversations).supportTeam()).map((u) => u.id);
        yield* publishToAll(team, "chat.conversation", data);
        if (updated.userId !== null) yield* publish(updated.userId, "chat.conversation", data);
        yield* audit({ action: status === "closed" ? "chat.closed" : "chat.reopened", actorId: caller.user.id, subjectId: conversation.id });
        return presentConversation(updated);
      }),
    );
  });

export const close = (id: string) => setStatus(id, "closed");
export const reopen = (id: string) => setStatus(id, "open");

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
