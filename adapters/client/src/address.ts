/** `base` made absolute against the page's address (hc and URL need one). */
export const absolute = (base: string) => new URL(base, globalThis.location?.href ?? "http://localhost/").href;

/** The API's address in English, the default (`/api/v1/<language>`, ADR 76). */
export const DEFAULT_API_BASE = "/api/v1/en";

/** The API's address `base` answering in `language` (`/api/v1/es`): the server's messages follow it. */
export const withLanguage = (base: string, language: string): string => base.replace(/\/api\/v1\/[a-z]{2}$/, `/api/v1/${language}`);
