import { request } from "./client.ts";
import type { Notification, Page, RecentReport, Reminder } from "./types.ts";

export const notificationsCount = () =>
  request<number | { count?: number; unread?: number }>("GET", "/user/notifications-count", { quiet: true });
export const notifications = () => request<ReadonlyArray<Notification> | Page<Notification>>("GET", "/user/notifications", { quiet: true });
export const readNotifications = () => request<unknown>("POST", "/user/read-notifications", { json: {}, quiet: true });
export const reminders = () => request<ReadonlyArray<Reminder> | Page<Reminder>>("GET", "/user/reminders");

export const reportList = (body: Record<string, unknown>, page = 1) =>
  request<Page<RecentReport> | ReadonlyArray<RecentReport>>("POST", "/report/list", { json: body, query: { page } });

/** Lists arrive as an array or as a page; the screens want the rows. */
export const rowsOf = <T>(results: ReadonlyArray<T> | Page<T> | null | undefined): ReadonlyArray<T> =>
  Array.isArray(results) ? results : ((results as Page<T> | null | undefined)?.data ?? []);
