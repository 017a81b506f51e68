import type { PresentedConversation, PresentedMessage } from "@crown/core/chat/present";
import { crown } from "../api/crown.ts";
import type { Api, ResultsOf } from "../api/wire.ts";

/** The support chat calls of the signed-in widget and the support inbox. */

/*
 * Answer types from core's chat presenters and the server's routes (type-only imports: nothing of
 * core's runtime reaches the bundle).
 */
export type ChatMessage = PresentedMessage;
export type ChatAttachment = ChatMessage["attachments"][number];
export type Conversation = PresentedConversation;
export type MyConversation = ResultsOf<Api["chat"]["conversation"]["$get"]>;

export const getMyConversation = (before?: string) => crown.call((api) => api.chat.conversation.$get({ query: { before } }), { quiet: true });

export const sendMessage = (text: string, images: File[]) =>
  crown.call((api) => api.chat.conversation.messages.$post(images.length === 0 ? { json: { text } } : { form: { text, images } }), { quiet: true });

export const markRead = () => crown.call((api) => api.chat.conversation.read.$post(), { quiet: true });
/** E-mails what support wrote that the user has not seen (and vice versa), now. */
export const emailUnseen = () => crown.call((api) => api.chat.messages.$post(), { quiet: true });

// ---- Support inbox ----

export type InboxPage = ResultsOf<Api["support"]["conversations"]["$get"]>;
export type InboxRow = InboxPage["data"][number];
export type SupportConversation = ResultsOf<Api["support"]["conversations"][":id"]["$get"]>;

const conversation = (id: string) => ({ param: { id } });

export const inbox = (page: number, status: "open" | "closed" | "all", mine: boolean) =>
  crown.call((api) => api.support.conversations.$get({ query: { page, status, mine: mine ? 1 : undefined } }), { quiet: true });
export const supportConversation = (id: string) => crown.call((api) => api.support.conversations[":id"].$get(conversation(id)), { quiet: true });
export const supportReply = (id: string, text: string, images: File[]) =>
  crown.call(
    (api) => api.support.conversations[":id"].messages.$post({ ...conversation(id), ...(images.length === 0 ? { json: { text } } : { form: { text, images } }) }),
    { quiet: true },
  );
export const assign = (id: string, assignee?: string) =>
  crown.call((api) => api.support.conversations[":id"].assign.$post({ ...conversation(id), json: assignee === undefined ? {} : { assignee_identifier: assignee } }));
export const closeConversation = (id: string) => crown.call((api) => api.support.conversations[":id"].close.$post(conversation(id)));
export const reopenConversation = (id: string) => crown.call((api) => api.support.conversations[":id"].reopen.$post(conversation(id)));
