import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Env } from "./env.ts";

/** Every JSON (or form-encoded) body: small, read whole only up to this. */
export const JSON_LIMIT = 1024 * 1024;

export const BODY_MESSAGES = {
  tooLarge: "The request body is too large.",
  unsupportedType: "This call takes a JSON body (application/json).",
} as const;

/**
 * The only calls that take multipart, relative to the API base. Uploads (`stream`) are parsed as a
 * stream by busboy with per-file limits; the others are small and read whole under their route's own limit.
 */
const MULTIPART_ROUTES: ReadonlyArray<{ readonly path: RegExp; readonly stream: boolean }> = [
  { path: /^\/report\/upload$/, stream: true },
  { path: /^\/kiosk\/report\/upload$/, stream: true },
  { path: /^\/user\/profile$/, stream: false },
  { path: /^\/chat\/conversation\/messages$/, stream: false },
  { path: /^\/support\/conversations\/[^/]+\/messages$/, stream: false },
];

const mediaType = (c: Context) => (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
const isJson = (type: string) => type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
const hasBody = (c: Context) => c.req.raw.body !== null || Number(c.req.header("content-length") ?? "0") > 0;

/**
 * Decides every body before anything reads it: a type the call does not take is a 415, an
 * oversized body a 413, and a body without a length is cut off as soon as it passes the limit.
 * Nothing here buffers more than the limit (ADR 19).
 */
export const bodyPolicy = (apiBase: string): MiddlewareHandler<Env> => {
  const jsonLimit = bodyLimit({ maxSize: JSON_LIMIT, onError: (c) => c.json({ message: BODY_MESSAGES.tooLarge }, 413) });
  return async (c, next) => {
    const route = MULTIPART_ROUTES.find((r) => r.path.test(c.req.path.slice(apiBase.length)));
    // A streamed upload reads the Node request itself: touching the web body here would start a second
    // reader on the same socket, and the upload's parser would see only part of the bytes.
    if (route?.stream) return next();
    if (!hasBody(c)) return next();
    const type = mediaType(c);
    if (type.startsWith("multipart/")) {
      if (!route) return c.json({ message: BODY_MESSAGES.unsupportedType }, 415);
      // Streamed uploads are limited per file by their parser; the others by their route's limit.
      return next();
    }
    if (type !== "" && !isJson(type) && type !== "application/x-www-form-urlencoded") return c.json({ message: BODY_MESSAGES.unsupportedType }, 415);
    return jsonLimit(c, next);
  };
};
