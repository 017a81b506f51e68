/**
 * A failed call: HTTP status (0: no answer at all), the server's message, field errors (422), its `status`
 * and `data` (403: why, and what the screen may show of it), Retry-After (429).
 */
export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
    readonly errors: Readonly<Record<string, ReadonlyArray<string>>> = {},
    readonly status?: string,
    readonly retryAfterSeconds?: number,
    /** As the server sent it: read with a parser before use. */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** The network is down or the server unreachable: nothing answered. */
  get offline(): boolean {
    return this.httpStatus === 0;
  }

  /** The first message for each field, as the forms show them. */
  get fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, list] of Object.entries(this.errors)) if (list[0]) out[field] = list[0];
    return out;
  }
}

/** The message of a failed call, or `fallback` for anything else. */
export const messageOf = (error: unknown, fallback: string): string => (error instanceof ApiError ? error.message || fallback : fallback);
