import { Effect, Option } from "effect";
import { NotFound } from "../shared/errors.ts";
import { audit, now, Random, Secrets, transaction } from "../shared/ports.ts";
import { clientAddress, throttle } from "../shared/throttle.ts";
import { validate } from "../shared/validation.ts";
import { blobOf, markConversationRead, writeInto } from "./delivery.ts";
import { ChatConfig, ChatMessages, Conversations, openConversation, VisitorTokens } from "./model.ts";
import { CHAT_LIMITS } from "./policy.ts";
import { presentAll, presentConversation, presentOne } from "./present.ts";
import { CHAT_MESSAGES, VisitorMessageRequest } from "./requests.ts";

/* A visitor of the public pages, known only by the e-mail address it writes with and its token. */

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
    yield* throttle(`chat:visitor:addr:${address}`, CHAT_LIMITS.visitorPerAddress, CHAT_MESSAGES.tooMany);
    yield* throttle(`chat:visitor:mail:${email}`, CHAT_LIMITS.visitorPerEmail, CHAT_MESSAGES.tooMany);
    if (token) {
      const access = yield* visitorAccess(token);
      if (access.conversation.visitorEmail !== email) return yield* new NotFound({ message: CHAT_MESSAGES.visitorToken });
      const { conversation, message } = yield* writeInto(access.conversation, { kind: "visitor", id: null }, request.text, []);
      return { token: null, conversation: presentConversation(conversation), message: yield* presentOne(message, conversation, true) };
    }
    yield* throttle(`chat:visitor:start:${address}`, CHAT_LIMITS.visitorStartsPerAddress, CHAT_MESSAGES.tooMany);
    const random = yield* Random;
    const at = yield* now;
    const conversations = yield* Conversations;
    const conversation = openConversation(random.identifier(), { userId: null, visitorEmail: email, visitorName: request.name ?? null }, at);
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
    return { token: secret, conversation: presentConversation(written.conversation), message: yield* presentOne(written.message, written.conversation, true) };
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
