import { useEffect, useState } from "react";
import { messageOf } from "./crown.ts";
import { toast } from "../ui/toasts.tsx";

/** One page of a list, as the paged calls answer it. */
export interface PagedAnswer<T> {
  readonly results: { readonly data: ReadonlyArray<T>; readonly last_page: number };
}

export interface PagedRowsOptions {
  /** A spinner on every load (a new page, search or filter), not the last rows until the answer. */
  readonly fresh?: boolean;
  /** Also said aloud (a toast) when a load fails, beside the list's own message. */
  readonly toastFailure?: boolean;
}

/**
 * Every paged list of the portal (the ListTable's rows): fetches `load(page)` whenever the page, `deps`
 * or a `reload()` changes; an answer that a newer load overtook is dropped. `rows` is null until the
 * first answer and empty after a failure, kept in `failure` and worded in `error`. With `load` null (a
 * reader without the role, a staff member before choosing a physician) nothing is fetched.
 */
export function usePagedRows<T>(load: ((page: number) => Promise<PagedAnswer<T>>) | null, deps: readonly unknown[] = [], { fresh = false, toastFailure = false }: PagedRowsOptions = {}) {
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<ReadonlyArray<T> | null>(null);
  const [lastPage, setLastPage] = useState(1);
  const [failure, setFailure] = useState<unknown>(null);
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    if (!load) return;
    let live = true;
    if (fresh) {
      setRows(null);
      setFailure(null);
    }
    load(page)
      .then((r) => {
        if (!live) return;
        setRows(r.results.data);
        setLastPage(Math.max(1, r.results.last_page));
      })
      .catch((e: unknown) => {
        if (!live) return;
        setRows([]);
        setFailure(e);
        if (toastFailure) toast(messageOf(e), "error");
      });
    return () => {
      live = false;
    };
  }, [page, reloads, ...deps]);
  return { page, setPage, rows, setRows, lastPage, failure, error: failure ? messageOf(failure) : null, reload: () => setReloads((n) => n + 1) };
}

/** A list row's action: run it, say how it went, and reload the list after a success. */
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
