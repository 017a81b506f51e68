/** Messages more than one feature answers with; a plain module, so the browser may import it. */

/** The message of a 429 unless a feature words its own. */
export const TOO_MANY_ATTEMPTS = "Too many attempts. Please try again later.";

/** Every list's page size rule. */
export const PER_PAGE_MESSAGE = "Per page must be a whole number between 1 and 100";

/** What the portal tells someone whose session the server no longer accepts (revoked, expired, signed out elsewhere). */
export const SESSION_ENDED = "Your session has ended. Please sign in again.";

/** Every list's page number rule (PAGE_LIMITS.maxPage in shared/page.ts). */
export const PAGE_MESSAGE = "Page must be a whole number between 1 and 1000000";

/** Refusals that name the account's status (`{status}` is filled in with `fill`). */
export const STATUS_MESSAGES = {
  accountRefused: "This account cannot do that while its status is {status}.",
  notWaiting: "This account is not waiting for approval (status {status}).",
  baaRefused: "The agreement cannot be signed while the account status is {status}.",
  disclaimerRefused: "The disclaimer cannot be accepted while the account status is {status}.",
} as const;
