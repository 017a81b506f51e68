import type { IncomingMessage } from "node:http";
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
export const MULTIPART_ROUTES: ReadonlyArray<{ readonly path: RegExp; readonly stream: boolean }> = [
  { path: /^\/report\/upload$/, stream: true },
  { path: /^\/kiosk\/report\/upload$/, stream: true },
  { path: /^\/user\/profile$/, stream: false },
  { path: /^\/chat\/conversation\/messages$/, stream: false },
  { path: /^\/support\/conversations\/[^/]+\/messages$/, stream: false },
  { path: /^\/admin\/model\/shadow$/, stream: false },
];

const mediaType = (c: Context) => (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
const isJson = (type: string) => type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
const hasBody = (c: Context) => c.req.raw.body !== null || Number(c.req.header("content-length") ?? "0") > 0;

/** The Node request under Hono (`@hono/node-server`), or undefined (the tests' `app.request`). */
const nodeRequest = (c: Context): IncomingMessage | undefined => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;

/**
 * Reads a JSON body from the Node request itself, refusing past `limit` bytes as they arrive (ADR 0103).
 * Touching the web body instead builds a whole web Request for every call (an AbortController, a web
 * stream, a finaliser, and Hono's limit wraps it in a second one): work the server does on every call for
 * nothing. Null: over the limit.
 */
export const readSmallBody = (incoming: IncomingMessage, limit: number): Promise<string | null> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const detach = () => incoming.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
    const done = (result: string | null) => {
      detach();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Nothing more is kept; the rest is read and dropped so the 413 reaches the client.
        incoming.resume();
        done(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done(Buffer.concat(chunks, size).toString("utf8"));
    const onError = (error: Error) => {
      detach();
      reject(error);
    };
    // A client gone before the end of its body must not leave the call waiting (and counted in flight) for ever.
    const onClose = () => onError(new Error("The request body ended early."));
    incoming.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });

/**
 * Decides every body before anything reads it: a type the call does not take is a 415, an
 * oversized body a 413, and a body without a length is cut off as soon as it passes the limit.
 * Nothing here buffers more than the limit (ADR 19).
 */
export const bodyPolicy = (apiBase: string): MiddlewareHandler<Env> => {
  const jsonLimit = bodyLimit({ maxSize: JSON_LIMIT, onError: (c) => c.json({ message: BODY_MESSAGES.tooLarge }, 413) });
  const tooLarge = (c: Context<Env>) => c.json({ message: BODY_MESSAGES.tooLarge }, 413);
  return async (c, next) => {
    const route = MULTIPART_ROUTES.find((r) => r.path.test(c.req.path.slice(apiBase.length)));
    // A streamed upload reads the Node request itself: touching the web body here would start a second
    // reader on the same socket, and the upload's parser would see only part of the bytes.
    if (route?.stream) return next();
    const type = mediaType(c);
    const incoming = nodeRequest(c);
    if (incoming && (type === "" || isJson(type))) {
      // The headers decide first (no body is read past a declared length over the limit), then the bytes as they come.
      const declared = Number(incoming.headers["content-length"] ?? "0");
      if (declared > JSON_LIMIT) return tooLarge(c);
      if (declared === 0 && incoming.headers["transfer-encoding"] === undefined) return next();
      const text = await readSmallBody(incoming, JSON_LIMIT);
      if (text === null) return tooLarge(c);
      c.set("bodyText", text);
      return next();
    }
    if (!hasBody(c)) return next();
    if (type.startsWith("multipart/")) {
      if (!route) return c.json({ message: BODY_MESSAGES.unsupportedType }, 415);
      // Streamed uploads are limited per file by their parser; the others by their route's limit.
      return next();
    }
    if (type !== "" && !isJson(type) && type !== "application/x-www-form-urlencoded") return c.json({ message: BODY_MESSAGES.unsupportedType }, 415);
    return jsonLimit(c, next);
  };
};
