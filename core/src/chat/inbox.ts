import { Effect, Option } from "effect";
import { CurrentUser, Users } from "../accounts/model.ts";
import { Babies, babyName } from "../onboarding/model.ts";
import { type ReportListing, Reports } from "../report/model.ts";
import { pageOf } from "../shared/page.ts";
import { audit } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { conversationForSupport, requireSupport } from "./access.ts";
import { markConversationRead } from "./delivery.ts";
import { ChatMessages, type Conversation, Conversations, type InboxQuery } from "./model.ts";
import { CHAT_LIMITS } from "./policy.ts";
import { namesOf, presentAll, presentConversation, presentMessage } from "./present.ts";
import { InboxFilter } from "./requests.ts";

/* The support inbox: the list of conversations, and one conversation with the customer's context. */

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

/** A report as support sees it beside a conversation. */
const presentContextReport = (r: ReportListing) => ({
  identifier: r.id,
  baby_identifier: r.babyId,
  baby_name: r.babyName,
  status: r.status,
  submitted_at: r.submittedAt?.toISOString() ?? null,
  published_at: r.publishedAt?.toISOString() ?? null,
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
    const latest: Array<ReturnType<typeof presentContextReport>> = [];
    if (Option.isSome(reports)) {
      for (const baby of list.slice(0, 10)) {
        const page = yield* reports.value.uploadsForBaby(baby.id, { page: 1, perPage: 3 });
        latest.push(...page.data.map(presentContextReport));
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
