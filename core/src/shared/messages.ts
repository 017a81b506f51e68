/** Messages more than one feature answers with; a plain module, so the browser may import it. */

/** The message of a 429 unless a feature words its own. */
export const TOO_MANY_ATTEMPTS = "Too many attempts. Please try again later.";
