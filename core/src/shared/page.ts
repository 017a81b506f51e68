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
