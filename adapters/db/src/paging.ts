import { CompiledQuery, type SelectQueryBuilder, sql } from "kysely";
import type { Executor } from "./executor.ts";

/**
 * Paging that costs the same on page 1 and page 5,000, at 1k or 100k rows (ADR 0072). The spec's
 * API stays `?page=N`; behind it:
 * - keyset: the sort key of the last row of page N is remembered for page N+1, so the next page
 *   starts at that key in the index instead of skipping N×perPage rows. Without an anchor (a jump,
 *   another process, an expired one) the page falls back to OFFSET over a narrow index-only scan.
 * - counts: exact up to COUNT_CAP matching rows (a count with a LIMIT, never a rescan of the list);
 *   beyond, the planner's estimate of the query's rows, remembered for a minute per list. A searched
 *   list that can also tell whether a next page exists (withinReach) is exact only up to
 *   SEARCH_COUNT_CAP: each candidate of a search is read from the table to check the pattern (about a
 *   page of the heap per row), so its cap bounds that cost (ADR 0096); and the capped count of a
 *   search is remembered for SEARCH_COUNT_TTL_MS per list, so paging through a search (or the same
 *   search again) does not recheck the same candidates each time (ADR 0100). The rows are always live;
 *   the total can lag a report published in those seconds, and `withinReach` still corrects it by what
 *   the page read.
 */

export const COUNT_CAP = 1000;
export const SEARCH_COUNT_CAP = 100;
/** The cap of a list's exact count: lower when a search pattern filters it. */
export const countCapFor = (search: string | null | undefined) => (search ? SEARCH_COUNT_CAP : COUNT_CAP);
const ANCHOR_TTL_MS = 60_000;
const ESTIMATE_TTL_MS = 60_000;
const SEARCH_COUNT_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

/** A small map with a time to live and a bound on its size (the oldest entry goes first). */
class Expiring<V> {
  readonly #entries = new Map<string, { value: V; until: number }>();
  constructor(private readonly ttlMs: number) {}
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until < Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }
  set(key: string, value: V) {
    this.#entries.delete(key);
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, { value, until: Date.now() + this.ttlMs });
  }
}

/** Where a page starts: the sort key of the row before it (the timestamp as PostgreSQL's text, microseconds kept). */
export interface Anchor {
  readonly at: string;
  readonly id: string;
}

const anchors = new Expiring<Anchor>(ANCHOR_TTL_MS);
const estimates = new Expiring<number>(ESTIMATE_TTL_MS);

/**
 * Searches' capped counts for SEARCH_COUNT_TTL_MS, one memory per repository (so per database), keyed by the
 * search (its list, filters and term); `cap` + 1 means "more than the cap".
 */
export const searchCountMemory = () => new Expiring<number>(SEARCH_COUNT_TTL_MS);

/** The anchor of page `page` of the list named `list`, if the previous page was served lately. */
export const anchorOf = (list: string, page: number): Anchor | undefined => (page > 1 ? anchors.get(`${list}#${page}`) : undefined);

/** Remembers where page `page + 1` starts, from the last row of a full page `page`. */
export const rememberAnchor = (list: string, page: number, perPage: number, rows: ReadonlyArray<{ readonly anchor_at: string | null; readonly id: string }>) => {
  const last = rows[rows.length - 1];
  if (rows.length === perPage && last !== undefined && last.anchor_at !== null) anchors.set(`${list}#${page + 1}`, { at: last.anchor_at, id: last.id });
};

/** The planner's row estimate for a query (EXPLAIN, nothing executed). */
const estimateRows = async (ex: Executor, query: SelectQueryBuilder<any, any, any>): Promise<number> => {
  const compiled = query.compile();
  const result = await ex.executeQuery<{ "QUERY PLAN": unknown }>(CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]));
  const raw = result.rows[0]?.["QUERY PLAN"];
  const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ Plan: { "Plan Rows": number } }>;
  return Math.round(plan[0]?.Plan["Plan Rows"] ?? 0);
};

/** The capped count of `matching` as a scalar subquery: exact up to `cap`, `cap` + 1 beyond. */
export const cappedCount = (ex: Executor, matching: SelectQueryBuilder<any, any, any>, cap: number = COUNT_CAP) =>
  ex.selectFrom(matching.select(sql.lit(1).as("one")).limit(cap + 1).as("m")).select((eb) => eb.fn.countAll<number>().as("n"));

/** The total from a capped count: itself up to `cap`; beyond, the planner's estimate (remembered a minute, never below `cap` + 1). */
export const totalFrom = async (ex: Executor, list: string, matching: SelectQueryBuilder<any, any, any>, capped: number, cap: number = COUNT_CAP): Promise<number> => {
  if (capped <= cap) return capped;
  const known = estimates.get(list);
  if (known !== undefined) return known;
  const estimate = Math.max(cap + 1, await estimateRows(ex, matching.select(sql.lit(1).as("one"))));
  estimates.set(list, estimate);
  return estimate;
};

/**
 * An estimated total corrected by what the page just read (ADR 0096): a page with a row after it
 * means at least one more page (so "Last" and the numbers always reach it, however low the estimate);
 * a page with none after it is the end, and the total is exact.
 */
export const withinReach = (total: number, page: number, perPage: number, rows: number, more: boolean): number => {
  const before = (page - 1) * perPage;
  if (more) return Math.max(total, before + rows + 1);
  return rows > 0 || page === 1 ? before + rows : total;
};

/**
 * The total of a list: `matching` is the list's FROM and WHERE (no select, no order). Exact up to
 * `cap`; beyond, estimated (never below `cap` + 1, so the pages the user can reach stay reachable).
 */
export const countOf = async (ex: Executor, list: string, matching: SelectQueryBuilder<any, any, any>, cap: number = COUNT_CAP): Promise<number> => {
  const capped = await cappedCount(ex, matching, cap).executeTakeFirstOrThrow();
  return totalFrom(ex, list, matching, Number(capped.n), cap);
};
