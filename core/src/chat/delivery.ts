import { Effect, Option } from "effect";
import { publish, publishToAll } from "../live/service.ts";
import { NotFound, TooLarge, ValidationFailed } from "../shared/errors.ts";
import { keepBlobs, putThenName } from "../shared/pending-blobs.ts";
import { BlobStore, ContentSniffer, now, Random, transaction } from "../shared/ports.ts";
import { type AuthorKind, type ChatAttachment, type ChatMessage, ChatMessages, type ChatSide, type Conversation, Conversations, sideOf } from "./model.ts";
import { CHAT_LIMITS } from "./policy.ts";
import { presentConversation, presentOne } from "./present.ts";
import { CHAT_MESSAGES, type IncomingImage } from "./requests.ts";

/*
 * The steps every audience shares: writing a message (its images first), read receipts, and the live
 * events and unread counts that follow them.
 */

/**
 * Checks the images like uploads (type by the bytes: PNG or JPEG only; at most 10 MB), before any is
 * stored. Answers the attachments to record and the blobs to write for them.
 */
const checkImages = (conversationId: string, messageId: string, images: ReadonlyArray<IncomingImage>, at: Date) =>
  Effect.gen(function* () {
    if (images.length > CHAT_LIMITS.imagesPerMessage) return yield* ValidationFailed.field("images", CHAT_MESSAGES.tooManyImages);
    const sniffer = yield* ContentSniffer;
    const random = yield* Random;
    const attachments: ChatAttachment[] = [];
    const blobs: Array<{ key: string; body: Uint8Array; contentType: string }> = [];
    for (const image of images) {
      if (image.bytes.length > CHAT_LIMITS.imageMaxBytes) return yield* new TooLarge({ message: CHAT_MESSAGES.imageTooLarge });
      const kind = yield* sniffer.sniff(image.bytes.subarray(0, 4100));
      if (Option.isNone(kind) || (kind.value.mime !== "image/png" && kind.value.mime !== "image/jpeg")) {
        return yield* ValidationFailed.field("images", CHAT_MESSAGES.imageType);
      }
      const { mime, ext } = kind.value;
      const id = random.identifier();
      const blobKey = `chat/${conversationId}/${id}.${ext}`;
      blobs.push({ key: blobKey, body: image.bytes, contentType: mime });
      attachments.push({ id, messageId, conversationId, blobKey, mime, size: image.bytes.length, fileName: image.fileName.slice(0, 200) || `image.${ext}`, createdAt: at });
    }
    return { attachments, blobs };
  });

/** Unread counts and live events after a message: the conversation's user and the whole team hear of it. */
const announceMessage = (conversation: Conversation, message: ChatMessage) =>
  Effect.gen(function* () {
    const team = (yield* (yield* Conversations).supportTeam()).map((u) => u.id);
    const presented = yield* presentOne(message, conversation);
    const data = { conversation: presentConversation(conversation), message: presented };
    if (conversation.userId !== null) yield* publish(conversation.userId, "chat.message", data);
    yield* publishToAll(team, "chat.message", data);
    yield* announceUnread(conversation, sideOf(message.authorKind) === "support" ? "customer" : "support", team);
  });

/** Publishes the unread count of one side: the user's own count, or the inbox count to the team. */
export const announceUnread = (conversation: Conversation, side: ChatSide, team?: ReadonlyArray<string>) =>
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
export const writeInto = (
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
    // The blobs go first (a message never names a missing file), pending until the message names them (ADR 0051).
    const pending = target.id;
    const { attachments, blobs } = yield* checkImages(pending, messageId, images, at);
    const write = transaction(
      Effect.gen(function* () {
        const conversations = yield* Conversations;
        const locked = yield* conversations.lock(pending);
        const conversation = Option.getOrThrow(locked);
        const message: ChatMessage = { id: messageId, conversationId: conversation.id, authorKind: author.kind, authorId: author.id, text, attachments, createdAt: at, readAt: null, emailedAt: null };
        yield* keepBlobs(blobs.map((b) => b.key));
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
    return yield* putThenName(blobs, write);
  });

/** Marks the other side's messages read and, when that changed anything, sends the read receipt and new counts. */
export const readAndAnnounce = (conversation: Conversation, reader: ChatSide, at: Date) =>
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
export const markConversationRead = (conversation: Conversation, reader: ChatSide) =>
  Effect.gen(function* () {
    const at = yield* now;
    return yield* transaction(readAndAnnounce(conversation, reader, at));
  });

export const blobOf = (attachment: ChatAttachment) =>
  Effect.gen(function* () {
    const blob = yield* (yield* BlobStore).get(attachment.blobKey);
    if (Option.isNone(blob)) return yield* NotFound.of("Attachment");
    return { ...blob.value, fileName: attachment.fileName };
  });
