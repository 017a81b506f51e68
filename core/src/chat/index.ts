/*
 * The support chat's use cases, one audience per file: a customer's own conversation, a visitor's,
 * the support inbox and support's actions, and the unseen-message e-mails. `Chat.*` in core's index.
 */
export { CHAT_LIMITS, isSupport, SUPPORT_TYPES } from "./policy.ts";
export { AssignRequest, CHAT_MESSAGES, ChatMessageRequest, type IncomingImage, InboxFilter, VisitorMessageRequest } from "./requests.ts";
export { attachmentUrl, presentConversation, type PresentedConversation, type PresentedMessage, presentMessage } from "./present.ts";
export * from "./customer.ts";
export * from "./visitor.ts";
export * from "./inbox.ts";
export * from "./support.ts";
export * from "./unseen-mail.ts";
