import { Either, Schema } from "effect";
import { PAGE_MESSAGE, PER_PAGE_MESSAGE } from "./messages.ts";

/** A page a repository is asked for (1-based). */
export interface PageRequest {
  readonly page: number;
  readonly perPage: number;
}
/** One page of rows and the count of them all. */
export interface PageOf<T> {
  readonly data: ReadonlyArray<T>;
  readonly total: number;
}

/** One page of a list on the wire (api-contract.md): every paged answer has this shape. */
export const pageOf = <T>(data: ReadonlyArray<T>, total: number, page: number, perPage: number) => ({
  data,
  current_page: page,
  last_page: Math.max(1, Math.ceil(total / perPage)),
  per_page: perPage,
  total,
});
export type WirePage<T> = ReturnType<typeof pageOf<T>>;

/**
 * The paging limits: `?page=` from 1 to MAX_PAGE (its offset, at most 100 a page, then always fits
 * the database's integers: a page past the end is empty, never a server error), `per_page` 1 to 100.
 */
export const PAGE_LIMITS = { maxPage: 1_000_000, perPageDefault: 10, maxPerPage: 100 } as const;

/** Text of decimal digits only: no sign, space, exponent, fraction or hexadecimal (`1e21` is not a page). */
const Digits = Schema.compose(Schema.String.pipe(Schema.pattern(/^[0-9]{1,16}$/)), Schema.NumberFromString);

/**
 * The one rule for a whole number a client sends, in a query string or a JSON body (issue 46): a
 * JSON number, or text of decimal digits, that is a safe integer within [min, max]; anything else is
 * `message`. Every `page`, `per_page` and numeric query value is read with it.
 */
export const WholeNumber = (min: number, max: number, message: string) =>
  Schema.Union(Schema.Number, Digits)
    .annotations({ message: () => ({ message, override: true }) })
    .pipe(Schema.filter((n) => Number.isSafeInteger(n) && n >= min && n <= max, { message: () => ({ message, override: true }) }))
    .annotations({ jsonSchema: { type: "integer", minimum: min, maximum: max } });

/** `?page=`: 1-based, at most PAGE_LIMITS.maxPage. */
export const PageNumber = WholeNumber(1, PAGE_LIMITS.maxPage, PAGE_MESSAGE);

/** `per_page`: 1 to 100 (api-contract.md), optional (null or absent is the list's default). */
export const PerPageNumber = WholeNumber(1, PAGE_LIMITS.maxPerPage, PER_PAGE_MESSAGE);
// One message for the field (a union's other members, null and undefined, would each add theirs).
// An empty query value (`?per_page=`) is the default, as an absent one is.
export const OptionalPerPage = Schema.optionalWith(Schema.Union(PerPageNumber, Schema.Null, Schema.transformLiteral("", null)).annotations({ message: () => ({ message: PER_PAGE_MESSAGE, override: true }) }), { exact: true });
/** `?page=` in a query schema: absent, null or empty is page 1's caller default, as `pageFromQuery` reads it. */
export const OptionalPage = Schema.optionalWith(Schema.Union(PageNumber, Schema.Null, Schema.transformLiteral("", null)).annotations({ message: () => ({ message: PAGE_MESSAGE, override: true }) }), { exact: true });

const decodeWhole = (schema: ReturnType<typeof WholeNumber>) => Schema.decodeUnknownEither(schema);
const decodePage = decodeWhole(PageNumber);
const decodePerPage = decodeWhole(PerPageNumber);

/** A query's `page`, trimmed as every value is (absent or empty: page 1), or null when it breaks the rule (a 422 with PAGE_MESSAGE). */
export const pageFromQuery = (raw: string | undefined | null): number | null => {
  const text = raw?.trim() ?? "";
  return text === "" ? 1 : Either.getOrNull(decodePage(text));
};

/** A query's `per_page` (absent or empty: `fallback`), or null when it breaks the rule (a 422 with PER_PAGE_MESSAGE). */
export const perPageFromQuery = (raw: string | undefined | null, fallback: number = PAGE_LIMITS.perPageDefault): number | null => {
  const text = raw?.trim() ?? "";
  return text === "" ? fallback : Either.getOrNull(decodePerPage(text));
};
