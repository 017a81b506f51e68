import Cookies from "js-cookie";

/**
 * Where the portal keeps its bearer token between tabs and restarts (ADR 32). One cookie, read by
 * the portal only (the server takes the token from the Authorization header, never from cookies):
 * - without Remember me it is a browser-session cookie: every tab of the browser shares it, and it
 *   ends when the browser closes;
 * - with Remember me it lasts until the session's absolute end on the server (`expires_at`), so it
 *   survives a browser restart, never beyond what the server would still accept.
 * Nothing else about the user is kept: a new tab asks the server for the profile.
 */
const TOKEN_COOKIE = "crown_session";

const attributes = () => ({ path: "/", sameSite: "strict" as const, secure: window.location.protocol === "https:" });

export const keepToken = (token: string, rememberUntil: string | null) => {
  const until = rememberUntil ? new Date(rememberUntil) : null;
  Cookies.set(TOKEN_COOKIE, token, until && !Number.isNaN(until.getTime()) ? { ...attributes(), expires: until } : attributes());
};

export const keptToken = (): string | null => Cookies.get(TOKEN_COOKIE) ?? null;

export const forgetToken = () => Cookies.remove(TOKEN_COOKIE, attributes());
