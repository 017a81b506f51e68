import type { User } from "../accounts/model.ts";

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

/** Crown's support team: admins and reviewers answer the chat. */
export const SUPPORT_TYPES = ["admin", "reviewer"] as const;
export const isSupport = (user: Pick<User, "type">) => (SUPPORT_TYPES as ReadonlyArray<string>).includes(user.type);

