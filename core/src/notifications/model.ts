import { Context, Effect } from "effect";
import type { NoticeKey, NoticeParams } from "../i18n/mails/notices.ts";
import type { PageOf, PageRequest } from "../shared/page.ts";

export const NOTIFICATION_KINDS = [
  "account_approved",
  "invitation_accepted",
  "staff_added",
  "patient_added",
  "report_published",
  "recapture_requested",
  /** A practice asks an existing account's consent to link (ADR 56); the subject is the request. */
  "link_requested",
  /** The invitee declined a practice's request; the subject is the request. */
  "link_declined",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** A message in a user's bell. Written in the same transaction as the event that causes it. */
export interface Notification {
  readonly id: string;
  readonly userId: string;
  readonly kind: NotificationKind;
  /** The English text, as written when it happened. */
  readonly text: string;
  /** Its key and parameters, to render it in the reader's language; null for notifications written before they were kept. */
  readonly message: { readonly key: NoticeKey; readonly params: NoticeParams } | null;
  /** What it is about (a baby, a report, a user), for the client to link to. */
  readonly subjectId: string | null;
  readonly readAt: Date | null;
  readonly createdAt: Date;
}

export interface NotificationsPort {
  readonly insert: (notification: Notification) => Effect.Effect<void>;
  /** Newest first. */
  readonly list: (userId: string, page: PageRequest) => Effect.Effect<PageOf<Notification>>;
  readonly countUnread: (userId: string) => Effect.Effect<number>;
  /** Marks the user's notifications read: the given ones, or all when `ids` is null. Answers how many changed. */
  readonly markRead: (userId: string, ids: ReadonlyArray<string> | null, at: Date) => Effect.Effect<number>;
}
export class Notifications extends Context.Tag("crown/Notifications")<Notifications, NotificationsPort>() {}
