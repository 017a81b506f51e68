import { Data } from "effect";
import { fill } from "./i18n.ts";

/** The errors' own messages (English source of the `errors` catalogue, ADR 76). */
export const ERROR_MESSAGES = {
  unauthenticated: "You are not authorised to perform this action",
  notFound: "{what} not found",
} as const;

/**
 * Domain errors. Each maps to one HTTP status in the HTTP adapter by its tag, so no use case
 * ever chooses a status code and no adapter needs an ad-hoc `if`.
 */

/** 422: per-field messages, the first of which becomes `message`. */
export class ValidationFailed extends Data.TaggedError("ValidationFailed")<{
  readonly message: string;
  readonly errors: Readonly<Record<string, ReadonlyArray<string>>>;
}> {
  static field(field: string, message: string): ValidationFailed {
    return new ValidationFailed({ message, errors: { [field]: [message] } });
  }
}

/** 401: no session, or a session that is unknown, expired or revoked. */
export class Unauthenticated extends Data.TaggedError("Unauthenticated")<{ readonly message: string }> {
  static readonly default = ERROR_MESSAGES.unauthenticated;
}

/**
 * 403: the caller is known but not allowed; `status` tells the client why (e.g. EmailVerificationRequired),
 * and `data`, when there is any, what the client may show about it (a revoked tablet's when and why).
 */
export class Forbidden extends Data.TaggedError("Forbidden")<{
  readonly message: string;
  readonly status?: string;
  readonly data?: Readonly<Record<string, unknown>>;
}> {}

/** 404: the object does not exist or the caller may not see it (never reveal which). */
export class NotFound extends Data.TaggedError("NotFound")<{ readonly message: string }> {
  static of(what: string): NotFound {
    return new NotFound({ message: fill(ERROR_MESSAGES.notFound, { what }) });
  }
}

/** 409: the object is in a state that does not allow the request. */
export class Conflict extends Data.TaggedError("Conflict")<{ readonly message: string }> {}

/** 413: a body or file over its limit. */
export class TooLarge extends Data.TaggedError("TooLarge")<{ readonly message: string }> {}

/** 429: too many attempts; the client may retry after `retryAfterSeconds`. */
export class RateLimited extends Data.TaggedError("RateLimited")<{ readonly message: string; readonly retryAfterSeconds: number }> {}

export type DomainError = ValidationFailed | Unauthenticated | Forbidden | NotFound | Conflict | TooLarge | RateLimited;
