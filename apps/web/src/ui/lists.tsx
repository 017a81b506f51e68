import { useEffect, useRef, useState } from "react";
import { Button, Input, Label, SearchField } from "react-aria-components";
import { useTranslation } from "react-i18next";

export const PAGE_SIZE = 10;

/** Search triggers only when the box is empty or the trimmed text is longer than 2 characters (spec section 4). */
export const searchable = (text: string) => text.trim() === "" || text.trim().length > 2;

/** A search box that reports the text to search for, debounced, only when it is searchable. */
export function SearchBox({ label, placeholder, onSearch }: { label: string; placeholder: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState("");
  const last = useRef("");
  useEffect(() => {
    const t = window.setTimeout(() => {
      const q = text.trim();
      if (!searchable(q) || q === last.current) return;
      last.current = q;
      onSearch(q);
    }, 300);
    return () => window.clearTimeout(t);
  }, [text]);
  return (
    <SearchField className="field search-field" value={text} onChange={setText} aria-label={label}>
      <Label className="sr-only">{label}</Label>
      <Input placeholder={placeholder} />
    </SearchField>
  );
}

/** First, numbered pages and Last (10 a page). */
export function Pager({ page, lastPage, onPage, label }: { page: number; lastPage: number; onPage: (p: number) => void; label: string }) {
  // Other areas' lists use the pager too: until its words (reporting) are here it shows nothing, never a key.
  const { t, ready } = useTranslation("reporting");
  if (lastPage <= 1 || !ready) return null;
  const from = Math.max(1, Math.min(page - 2, lastPage - 4));
  const numbers = Array.from({ length: Math.min(5, lastPage) }, (_, i) => from + i);
  return (
    <nav className="pager numbered" aria-label={label}>
      <Button className="btn btn-ghost btn-sm" isDisabled={page <= 1} onPress={() => onPage(1)}>
        {t("pager.first")}
      </Button>
      {numbers.map((n) => (
        <Button key={n} className={`btn btn-sm ${n === page ? "btn-primary" : "btn-ghost"}`} onPress={() => onPage(n)} aria-current={n === page ? "page" : undefined} aria-label={t("pager.page", { number: n })}>
          {n}
        </Button>
      ))}
      <Button className="btn btn-ghost btn-sm" isDisabled={page >= lastPage} onPress={() => onPage(lastPage)}>
        {t("pager.last")}
      </Button>
    </nav>
  );
}

/** Rows padded to the page size, so the table keeps its height (spec section 9). */
export const padRows = <T,>(rows: ReadonlyArray<T>, size = PAGE_SIZE): Array<T | null> => [...rows, ...Array.from({ length: Math.max(0, size - rows.length) }, () => null)];

export const DownloadIcon = () => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
    <path d="M12 3v12m0 0l-5-5m5 5l5-5M4 19h16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);
