import { useEffect, useRef, useState } from "react";
import { Button, Input, Label, SearchField } from "react-aria-components";
import { useTranslation } from "react-i18next";

/** A list's page size where the spec names none (Results: 10 a page, spec section 9). */
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

export interface PagerProps {
  readonly page: number;
  readonly lastPage: number;
  readonly onPage: (page: number) => void;
  /** The pager's name for a screen reader ("Results pages"). */
  readonly label: string;
}

/** Every numbered list's pager (spec: First, numbered pages and Last): the dashboard's, Results', the consoles'. Nothing for one page. */
export function Pager({ page, lastPage, onPage, label }: PagerProps) {
  const { t } = useTranslation();
  if (lastPage <= 1) return null;
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

/**
 * A list the server pages by cursor (the audit log): no page count to number, so a step back and a
 * step on beside the page's number. Its words are the caller's.
 */
export function CursorPager({ label, page, newer, older }: { label: string; page: string; newer: { label: string; onPress: (() => void) | null }; older: { label: string; onPress: (() => void) | null } }) {
  return (
    <nav className="pager" aria-label={label}>
      <Button className="btn btn-secondary btn-sm" isDisabled={!newer.onPress} onPress={() => newer.onPress?.()}>
        {newer.label}
      </Button>
      <span className="muted">{page}</span>
      <Button className="btn btn-secondary btn-sm" isDisabled={!older.onPress} onPress={() => older.onPress?.()}>
        {older.label}
      </Button>
    </nav>
  );
}

export const DownloadIcon = () => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
    <path d="M12 3v12m0 0l-5-5m5 5l5-5M4 19h16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);
