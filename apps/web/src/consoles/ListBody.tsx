import type { ReactNode } from "react";
import { messageOf } from "../api/crown.ts";
import { FormMessage } from "../ui/fields.tsx";
import { PageSpinner } from "../ui/Loader.tsx";

/** A console list's body from `usePagedRows`: its failure worded, a spinner until the first answer, the empty text, or the rows. */
export function ListBody<T>({ rows, failure, empty, children }: { rows: ReadonlyArray<T> | null; failure: unknown; empty: string; children: (rows: ReadonlyArray<T>) => ReactNode }) {
  return (
    <>
      {failure ? <FormMessage tone="error">{messageOf(failure)}</FormMessage> : null}
      {rows === null ? <PageSpinner /> : rows.length === 0 ? <p className="empty">{empty}</p> : children(rows)}
    </>
  );
}
