import { request } from "../api/client.ts";

/** The support chat calls of the signed-in widget and the support inbox. */

export interface ChatAttachment {
  identifier: string;
  file_name: string;
  mime: string;
  size: number;
  url: string;
}
export interface ChatMessage {
  identifier: string;
  conversation_identifier: string;
  author: { kind: "user" | "visitor" | "support"; name: string };
  side: "customer" | "support";
  text: string;
  attachments: ChatAttachment[];
  created_at: string;
  read_at: string | null;
}
export interface Conversation {
  identifier: string;
  status: "open" | "closed";
  user_identifier: string | null;
  visitor_email: string | null;
  visitor_name: string | null;
  assignee_identifier: string | null;
  last_message_at: string | null;
  closed_at: string | null;
  created_at: string;
}
export interface MyConversation {
  conversation: Conversation | null;
  messages: ChatMessage[];
  unread: number;
  has_more: boolean;
}

export const getMyConversation = (before?: string) =>
  request<MyConversation>("GET", "/chat/conversation", { query: { before }, quiet: true });

export const sendMessage = (text: string, images: File[]) => {
  if (images.length === 0) return request<{ conversation: Conversation; message: ChatMessage }>("POST", "/chat/conversation/messages", { json: { text }, quiet: true });
  const form = new FormData();
  form.set("text", text);
  for (const image of images) form.append("images", image, image.name);
  return request<{ conversation: Conversation; message: ChatMessage }>("POST", "/chat/conversation/messages", { form, quiet: true });
};

export const markRead = () => request<{ updated: number }>("POST", "/chat/conversation/read", { quiet: true });
/** E-mails what support wrote that the user has not seen (and vice versa), now. */
export const emailUnseen = () => request<{ emailed: number }>("POST", "/chat/messages", { quiet: true });

// ---- Support inbox ----

export interface InboxRow extends Conversation {
  unread: number;
  user: { identifier: string; first_name: string; last_name: string; email: string; type: string } | null;
  last_message: ChatMessage | null;
}
export interface InboxPage {
  data: InboxRow[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  unread_conversations: number;
}
export interface SupportConversation {
  conversation: Conversation;
  messages: ChatMessage[];
  has_more: boolean;
  context: {
    user: { identifier: string; first_name: string; last_name: string; email: string; phone: string | null; type: string; status: string; created_at: string };
    babies: Array<{ identifier: string; name: string; date_of_birth: string; physician_identifier: string | null }>;
    reports: Array<{ identifier: string; baby_name: string; status: string; submitted_at: string | null; published_at: string | null }>;
  } | null;
}

export const inbox = (page: number, status: "open" | "closed" | "all", mine: boolean) =>
  request<InboxPage>("GET", "/support/conversations", { query: { page, status, mine: mine ? 1 : undefined }, quiet: true });
export const supportConversation = (id: string) => request<SupportConversation>("GET", `/support/conversations/${encodeURIComponent(id)}`, { quiet: true });
export const supportReply = (id: string, text: string, images: File[]) => {
  const path = `/support/conversations/${encodeURIComponent(id)}/messages`;
  if (images.length === 0) return request<{ conversation: Conversation; message: ChatMessage }>("POST", path, { json: { text }, quiet: true });
  const form = new FormData();
  form.set("text", text);
  for (const image of images) form.append("images", image, image.name);
  return request<{ conversation: Conversation; message: ChatMessage }>("POST", path, { form, quiet: true });
};
export const assign = (id: string, assignee?: string) =>
  request<Conversation>("POST", `/support/conversations/${encodeURIComponent(id)}/assign`, { json: assignee === undefined ? {} : { assignee_identifier: assignee } });
export const closeConversation = (id: string) => request<Conversation>("POST", `/support/conversations/${encodeURIComponent(id)}/close`);
export const reopenConversation = (id: string) => request<Conversation>("POST", `/support/conversations/${encodeURIComponent(id)}/reopen`);
