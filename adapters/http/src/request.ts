import type { Context } from "hono";
import type { BodyData, ParseBodyOptions } from "hono/utils/body";
import { INPUT_MESSAGES, isBadFileName, isUnstorableText, PAGE_MESSAGE, pageFromQuery, PER_PAGE_MESSAGE, perPageFromQuery, ValidationFailed } from "@crown/core";
import { HttpFailure, errorResponse } from "./effect-bridge.ts";
import { HTTP_MESSAGES } from "./messages.ts";

const PASSWORD_FIELDS = ["password", "old_password", "new_password", "confirm_password"] as const;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const fail = (error: ValidationFailed): never => {
  const { status, body } = errorResponse(error);
  throw new HttpFailure(Response.json(body, { status }));
};

/**
 * Password fields travel base64-encoded UTF-8 (api-contract.md): transport encoding, decoded
 * here before validation so that core sees the real password.
 */
export const decodePasswords = (body: Record<string, unknown>): Record<string, unknown> => {
  const out = { ...body };
  for (const field of PASSWORD_FIELDS) {
    const value = out[field];
    if (typeof value !== "string" || value === "") continue;
    const trimmed = value.trim();
    if (!BASE64.test(trimmed)) fail(ValidationFailed.field(field, `The ${field.replace("_", " ")} must be sent base64-encoded.`));
    out[field] = Buffer.from(trimmed, "base64").toString("utf8");
  }
  return out;
};

const BROKEN_FORM = "The form could not be read: its body is cut short or malformed.";

/**
 * A multipart or url-encoded body; a truncated or malformed one is a 422 on `body`, never a server
 * error, and so is a file whose name core's file-name rule refuses (on the file's field).
 */
export const formBody = async <T extends Partial<ParseBodyOptions>>(c: Context, options?: T): Promise<BodyData<T>> => {
  let form: BodyData<T>;
  try {
    form = await c.req.parseBody(options);
  } catch {
    return fail(ValidationFailed.field("body", BROKEN_FORM));
  }
  for (const [field, value] of Object.entries(form)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (values.some((v) => v instanceof File && isBadFileName(v.name))) return fail(ValidationFailed.field(field, INPUT_MESSAGES.badFileName));
  }
  return form;
};

/** The JSON body as an object; a body that is not a JSON object is a 422 naming the rule. */
export const jsonBody = async (c: Context): Promise<Record<string, unknown>> => {
  const type = c.req.header("content-type") ?? "";
  // Multipart never reaches a JSON call (the body policy answers 415); a small form-encoded body may.
  if (type.includes("application/x-www-form-urlencoded")) {
    const form = await formBody(c);
    return decodePasswords(Object.fromEntries(Object.entries(form).filter(([, v]) => typeof v === "string")));
  }
  // Already read by the body policy on the Node server; the web body elsewhere (the tests' app.request).
  const text = (c.get("bodyText") as string | undefined) ?? (await c.req.text());
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return decodePasswords(parsed as Record<string, unknown>);
  return fail(new ValidationFailed({ message: HTTP_MESSAGES.jsonObject, errors: { body: [HTTP_MESSAGES.jsonObject] } }));
};

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * A path or query that carries text no field may hold (core's input rule): a path segment names
 * nothing that can exist (404), a query parameter is a field error (422). Null when the URL is fine.
 */
export const urlProblem = (url: string): Response | null => {
  const u = new URL(url);
  if (u.pathname.split("/").some((segment) => isUnstorableText(decoded(segment)))) return Response.json({ message: HTTP_MESSAGES.notFound }, { status: 404 });
  for (const [key, value] of u.searchParams) {
    if (isUnstorableText(key) || isUnstorableText(value)) {
      const field = isUnstorableText(key) ? "query" : key;
      return Response.json({ message: INPUT_MESSAGES.badText, errors: { [field]: [INPUT_MESSAGES.badText] } }, { status: 422 });
    }
  }
  return null;
};

export const bearerToken = (c: Context): string | null => {
  const header = c.req.header("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
};

/** 1-based page from `?page=` (absent: 1) by core's one rule; anything else is the spec's 422 on `page`. */
export const pageParam = (c: Context): number => pageFromQuery(c.req.query("page")) ?? fail(ValidationFailed.field("page", PAGE_MESSAGE));

/** `?per_page=` by core's one rule (absent: `fallback`); anything else is the spec's 422 on `per_page`. */
export const perPageParam = (c: Context, fallback?: number): number => perPageFromQuery(c.req.query("per_page"), fallback) ?? fail(ValidationFailed.field("per_page", PER_PAGE_MESSAGE));
