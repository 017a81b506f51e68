import { OptionalPerPage, pageOf } from "../shared/page.ts";
import { Effect, Schema } from "effect";
import { CurrentUser, type User } from "../accounts/model.ts";
import { type NoticeKey, type NoticeParams, noticeText } from "../i18n/mails/notices.ts";
import type { Language } from "../shared/i18n.ts";
import { Mailer, now, type OutgoingMail, Random, requestLanguage } from "../shared/ports.ts";
import { validate } from "../shared/validation.ts";
import { publish } from "../live/service.ts";
import { type Notification, type NotificationKind, Notifications } from "./model.ts";

export const NOTIFICATION_MESSAGES = {
  list: "Notifications fetched successfully",
  count: "Notification count fetched successfully",
  read: "Notifications marked as read",
  reminders: "Reminders fetched successfully",
} as const;

/**
 * Writes a notification for `userId`. Call it inside the transaction of the event that causes it:
 * both are committed together or not at all. Its e-mail, if any, goes out after the commit
 * (`sendAll`), so no mail ever tells of something that was rolled back. It is kept with its key
 * and parameters (and its English text), and read in the reader's language.
 */
export const notify = (userId: string, kind: NotificationKind, key: NoticeKey, params: NoticeParams, subjectId: string | null) =>
  Effect.gen(function* () {
    const notification: Notification = {
      id: (yield* Random).identifier(),
      userId,
      kind,
      text: noticeText("en", key, params),
      message: { key, params },
      subjectId,
      readAt: null,
      createdAt: yield* now,
    };
    yield* (yield* Notifications).insert(notification);
    // The bell of every open tab updates when this transaction commits.
    yield* publish(userId, "notifications.count", { count: yield* (yield* Notifications).countUnread(userId), kind, subject_identifier: subjectId });
    return notification;
  });

/** Sends mails one by one, after the transaction that decided them has committed. */
export const sendAll = (mails: ReadonlyArray<OutgoingMail>) =>
  Effect.flatMap(Mailer, (mailer) => Effect.forEach(mails, (mail) => mailer.send(mail), { discard: true }));

/** A notification in `language`: English is the text as stored; another language renders the key, when there is one. */
export const presentNotification = (n: Notification, language: Language = "en") => ({
  identifier: n.id,
  kind: n.kind,
  text: language === "en" || n.message === null ? n.text : noticeText(language, n.message.key, n.message.params),
  read: n.readAt !== null,
  subject_identifier: n.subjectId,
  created_at: n.createdAt.toISOString(),
});

const PerPage = Schema.Struct({
  per_page: OptionalPerPage,
});

export const listNotifications = (page: number, query: unknown) =>
  Effect.gen(function* () {
    const { user } = yield* CurrentUser;
    const perPage = (yield* validate(PerPage, query)).per_page ?? 10;
    const result = yield* (yield* Notifications).list(user.id, { page, perPage });
    const language = yield* requestLanguage;
    return pageOf(result.data.map((n) => presentNotification(n, language)), result.total, page, perPage);
  });

export const countUnread = Effect.gen(function* () {
  const { user } = yield* CurrentUser;
  return { count: yield* (yield* Notifications).countUnread(user.id) };
});

const ReadRequest = Schema.Struct({
  identifiers: Schema.optionalWith(Schema.Array(Schema.String), { nullable: true }),
  identifier: Schema.optionalWith(Schema.String, { nullable: true }),
});

/** Marks the given notifications read (`identifiers` or `identifier`), or all of them when none is named. */
export const readNotifications = (input: unknown) =>
  Effect.gen(function* () {
    const { user } = yield* CurrentUser;
    const request = yield* validate(ReadRequest, input);
    const ids = request.identifiers ?? (request.identifier ? [request.identifier] : null);
    const changed = yield* (yield* Notifications).markRead(user.id, ids, yield* now);
    const count = yield* (yield* Notifications).countUnread(user.id);
    if (changed > 0) yield* publish(user.id, "notifications.count", { count });
    return { updated: changed, count };
  });
