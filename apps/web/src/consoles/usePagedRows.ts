import { useEffect, useState } from "react";
import { messageOf } from "../api/crown.ts";
import { toast } from "../ui/toasts.tsx";

/** One page of a console list, as the paged admin and review calls answer it. */
export interface PagedAnswer<T> {
  readonly results: { readonly data: ReadonlyArray<T>; readonly last_page: number };
}

/**
 * A console's paged list: fetches `load(page)` whenever the page, `deps` or a `reload()` changes.
 * `rows` is null until the first answer and empty after a failure, kept in `failure` for the caller
 * to word. With `load` null (a caller without the role) nothing is fetched.
 */
export function usePagedRows<T>(load: ((page: number) => Promise<PagedAnswer<T>>) | null, deps: readonly unknown[] = []) {
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<ReadonlyArray<T> | null>(null);
  const [lastPage, setLastPage] = useState(1);
  const [failure, setFailure] = useState<unknown>(null);
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    if (!load) return;
    load(page)
      .then((r) => {
        setRows(r.results.data);
        setLastPage(Math.max(1, r.results.last_page));
      })
      .catch((e: unknown) => {
        setRows([]);
        setFailure(e);
      });
  }, [page, reloads, ...deps]);
  return { page, setPage, rows, lastPage, failure, reload: () => setReloads((n) => n + 1) };
}

/** A console row's action: run it, say how it went, and reload the list after a success. */
export const actThenReload =
  (reload: () => void) =>
  async (fn: () => Promise<unknown>, ok: string): Promise<void> => {
    try {
      await fn();
      toast(ok, "success");
      reload();
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
