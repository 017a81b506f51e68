import type { PresentedConversation, PresentedMessage } from "@crown/core/chat/present";
import { request } from "../api/client.ts";
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
type Written = { conversation: Conversation; message: ChatMessage };

export const getMyConversation = (before?: string) =>
  request<MyConversation>("GET", "/chat/conversation", { query: { before }, quiet: true });

export const sendMessage = (text: string, images: File[]) => {
  if (images.length === 0) return request<Written>("POST", "/chat/conversation/messages", { json: { text }, quiet: true });
  const form = new FormData();
  form.set("text", text);
  for (const image of images) form.append("images", image, image.name);
  return request<Written>("POST", "/chat/conversation/messages", { form, quiet: true });
};

export const markRead = () => request<{ updated: number }>("POST", "/chat/conversation/read", { quiet: true });
/** E-mails what support wrote that the user has not seen (and vice versa), now. */
export const emailUnseen = () => request<{ emailed: number }>("POST", "/chat/messages", { quiet: true });

// ---- Support inbox ----

export type InboxPage = ResultsOf<Api["support"]["conversations"]["$get"]>;
export type InboxRow = InboxPage["data"][number];
export type SupportConversation = ResultsOf<Api["support"]["conversations"][":id"]["$get"]>;

export const inbox = (page: number, status: "open" | "closed" | "all", mine: boolean) =>
  request<InboxPage>("GET", "/support/conversations", { query: { page, status, mine: mine ? 1 : undefined }, quiet: true });
export const supportConversation = (id: string) => request<SupportConversation>("GET", `/support/conversations/${encodeURIComponent(id)}`, { quiet: true });
export const supportReply = (id: string, text: string, images: File[]) => {
  const path = `/support/conversations/${encodeURIComponent(id)}/messages`;
  if (images.length === 0) return request<Written>("POST", path, { json: { text }, quiet: true });
  const form = new FormData();
  form.set("text", text);
  for (const image of images) form.append("images", image, image.name);
  return request<Written>("POST", path, { form, quiet: true });
};
export const assign = (id: string, assignee?: string) =>
  request<Conversation>("POST", `/support/conversations/${encodeURIComponent(id)}/assign`, { json: assignee === undefined ? {} : { assignee_identifier: assignee } });
export const closeConversation = (id: string) => request<Conversation>("POST", `/support/conversations/${encodeURIComponent(id)}/close`);
export const reopenConversation = (id: string) => request<Conversation>("POST", `/support/conversations/${encodeURIComponent(id)}/reopen`);
