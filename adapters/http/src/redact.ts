/**
 * What may reach a log line from a request: its path with every secret replaced. The e-mail
 * verification link carries its token as a path segment; any other long random segment (a secret
 * is at least 32 base64url characters; identifiers are 26-character ULIDs) is hidden too, so a
 * route added later with a secret in its path does not leak it. The query string is never logged.
 */
export const REDACTED = "[redacted]";

const SECRET_SEGMENTS: ReadonlyArray<RegExp> = [
  // /email/verify/:id/:token
  /(\/email\/verify\/[^/]+\/)[^/]+/g,
];
const LONG_RANDOM = /(?<=^|\/)[A-Za-z0-9_-]{32,}(?=\/|$)/g;

export const redactPath = (path: string): string => {
  let out = path.split(/[?#]/, 1)[0] ?? "";
  for (const pattern of SECRET_SEGMENTS) out = out.replace(pattern, `$1${REDACTED}`);
  return out.replace(LONG_RANDOM, REDACTED);
};

/** The same for free text (an error message may quote a URL or a token). */
export const redactText = (text: string): string =>
  text.replace(/\/email\/verify\/[^/\s]+\/[^/\s?#]+/g, (m) => redactPath(m)).replace(/[A-Za-z0-9_-]{32,}/g, REDACTED);
