import { type DirectoryFilter, directoryText, type User } from "../accounts/model.ts";

/** The admin's directory over users in memory, as the database answers it: newest first, filtered, one page. */
export const directoryPage = (users: Iterable<User>, q: DirectoryFilter, p: { readonly page: number; readonly perPage: number }) => {
  const match = (u: User) =>
    (!q.type || u.type === q.type) && (!q.status || u.status === q.status) && (!q.search || directoryText(u).toLowerCase().includes(q.search.toLowerCase()));
  const rows = [...users].filter(match).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
  return { data: rows.slice((p.page - 1) * p.perPage, p.page * p.perPage), total: rows.length };
};
