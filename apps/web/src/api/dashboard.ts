import { crown } from "./crown.ts";
import type { Page } from "./types.ts";

export const notificationsCount = () => crown.call((api) => api.user["notifications-count"].$get(), { quiet: true });
export const notifications = () => crown.call((api) => api.user.notifications.$get(), { quiet: true });
export const readNotifications = () => crown.call((api) => api.user["read-notifications"].$post({ json: {} }), { quiet: true });
export const reminders = () => crown.call((api) => api.user.reminders.$get());

export const reportList = (body: { baby_identifier?: string; per_page?: number }, page = 1) =>
  crown.call((api) => api.report.list.$post({ json: body, query: { page } }));

/** Lists arrive as an array or as a page; the screens want the rows. */
export const rowsOf = <T>(results: ReadonlyArray<T> | Page<T> | null | undefined): ReadonlyArray<T> =>
  Array.isArray(results) ? results : ((results as Page<T> | null | undefined)?.data ?? []);
