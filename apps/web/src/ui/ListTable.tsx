import type { ReactNode } from "react";
import { FormMessage } from "./fields.tsx";
import { PageSpinner } from "./Loader.tsx";
import { Pager, type PagerProps } from "./lists.tsx";

/** One column of a list: its header and what each row shows in it. */
export interface ListColumn<T> {
  /** The header's words; with `headerHidden` only a screen reader reads them (an icon's column). */
  readonly header: string;
  readonly headerHidden?: boolean;
  readonly cell: (row: T) => ReactNode;
  /** The cells' class: `cell-actions` (buttons), `cell-action` (one icon), `cell-code` (identifiers, JSON). */
  readonly className?: string;
  /**
   * On a phone each row is a card and each cell is introduced by its header, but the first (the card's
   * title): false where the cell already says what it is ("Uploaded on 05/01/2026").
   */
  readonly stackLabel?: boolean;
}

export interface ListTableProps<T> {
  /** null until the first answer (a spinner), then the page's rows. */
  readonly rows: ReadonlyArray<T> | null;
  /** A column that is `false` is not this reader's (Staff Type for staff): left out. */
  readonly columns: ReadonlyArray<ListColumn<T> | false>;
  readonly rowKey: (row: T) => string;
  /** The words when there is no row. */
  readonly empty: string;
  /** With no row, the table keeps its header and says `empty` in a row (the tablets: what a tablet will show). */
  readonly emptyInTable?: boolean;
  /** Why the list could not be read, worded; shown above it. */
  readonly error?: string | null;
  readonly caption?: string;
  /** The caption shown to everyone, not to screen readers only. */
  readonly captionShown?: boolean;
  /** Rows padded to this many, so the table keeps its height from page to page (spec section 9). */
  readonly padTo?: number;
  /** Rows become cards on a phone (styles.css `.table-stack`); false keeps a narrow table's columns. */
  readonly stacked?: boolean;
  readonly className?: string;
  readonly rowClassName?: (row: T) => string | undefined;
  /** The list's pager, after it (nothing for one page). */
  readonly pager?: PagerProps;
}

/**
 * Every list of the portal (issue 43): a native table (header cells, an optional caption) with one
 * behaviour for loading, an error, no rows, padding and phones, and the one pager. Rows come in the
 * server's order: no list sorts in the browser. A native table, not react-aria's grid: the rows are
 * read, not navigated cell by cell, and screen readers announce a table's rows and cells (ADR 0163).
 */
export function ListTable<T>({ rows, columns, rowKey, empty, emptyInTable = false, error, caption, captionShown = false, padTo, stacked = true, className, rowClassName, pager }: ListTableProps<T>) {
  const shown = columns.filter((c): c is ListColumn<T> => c !== false);
  const padding = rows && padTo ? Math.max(0, padTo - rows.length) : 0;
  return (
    <>
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {rows === null ? (
        <PageSpinner />
      ) : rows.length === 0 && !emptyInTable ? (
        <p className="empty">{empty}</p>
      ) : (
        <div className="table-wrap">
          <table className={["table", stacked ? "table-stack" : "", className ?? ""].filter(Boolean).join(" ")}>
            {caption ? <caption className={captionShown ? undefined : "sr-only"}>{caption}</caption> : null}
            <thead>
              <tr>
                {shown.map((c, i) => (
                  <th key={i} scope="col">
                    {c.headerHidden ? <span className="sr-only">{c.header}</span> : c.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={rowKey(row)} className={rowClassName?.(row) || undefined}>
                  {shown.map((c, i) => (
                    <td key={i} className={c.className} data-label={i > 0 && c.stackLabel !== false ? c.header : undefined}>
                      {c.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={shown.length}>{empty}</td>
                </tr>
              ) : null}
              {Array.from({ length: padding }, (_, i) => (
                <tr key={`pad-${i}`} className="pad-row" aria-hidden="true">
                  <td colSpan={shown.length}>{"\u00a0"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pager ? <Pager {...pager} /> : null}
    </>
  );
}
