import { BAA_REQUIRED_STATUS, PRACTICE_BEING_VERIFIED } from "@crown/core/practice/statuses";
import { requestEnded, requestStarted } from "./pending.ts";
import i18next from "i18next";
import { uiMessage } from "../i18n/i18n.ts";
import { apiBase } from "../i18n/language.ts";

/**
 * The one door to the Crown API. It adds the bearer token, decodes the `{ message, results }`
 * envelope, turns a 401 into the sign-out flow and a 422 into per-field errors. Every call in
 * `api/*.ts` goes through `request`, so moving to the typed Hono client stays a local change.
 */

/** core's SECOND_FACTOR_SETUP_STATUS (its module brings Effect, which the sign-in page does not load). */
export const SECOND_FACTOR_SETUP_REQUIRED = "SecondFactorSetupRequired";
/** core's SECOND_FACTOR_STEP_STATUS: the password was right and the sign-in's second step is due. */
export const SECOND_FACTOR_STEP_REQUIRED = "SecondFactorRequired";

export const API_BASE = import.meta.env.VITE_API_BASE ?? "/api/v1/en";

/** core's `errors.unauthenticated` (its module brings Effect, which the sign-in page does not load), in the portal's language. */
export const unauthorisedMessage = (): string => uiMessage("You are not authorised to perform this action");
/** When the server gives no message (unreachable, or an answer that is not Crown's), in the portal's language. */
export const fallbackMessage = (): string => i18next.t("shell.failed");

export interface Envelope<T> {
  readonly message: string;
  readonly results: T;
}

/** A failed call: HTTP status, the server's message, field errors (422) and status (403). */
export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
    readonly errors: Readonly<Record<string, ReadonlyArray<string>>> = {},
    readonly status?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** The first message for each field, as the forms show them. */
  get fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, list] of Object.entries(this.errors)) if (list[0]) out[field] = list[0];
    return out;
  }
}

interface Hooks {
  getToken: () => string | null;
  onUnauthorised: (message: string) => void;
  /** A 403 naming the unsigned BAA: the session's flag is stale, the agreement is due. */
  onBaaRequired: () => void;
  /** A 403 naming the practice as being verified: the session's flag is stale. */
  onPracticeBeingVerified: () => void;
  /** A 403 naming a second factor still to set up: the session's step is stale. */
  onSecondFactorSetup?: () => void;
}
let hooks: Hooks = { getToken: () => null, onUnauthorised: () => undefined, onBaaRequired: () => undefined, onPracticeBeingVerified: () => undefined };
export const configureApi = (h: Hooks) => {
  hooks = h;
};

export interface RequestOptions {
  readonly json?: unknown;
  readonly form?: FormData;
  readonly query?: Record<string, string | number | boolean | undefined>;
  /** Sign-in, sign-up and the physician search go without a token (the spec). */
  readonly auth?: boolean;
  /** A 401 here is an answer for the form (e.g. a wrong old password), not a lost session. */
  readonly keepSessionOn401?: boolean;
  readonly quiet?: boolean;
  readonly signal?: AbortSignal;
  /** A token other than the tab's session (a new tab resuming the browser's session). */
  readonly token?: string;
  /** Another API of the same server than API_BASE (the FHIR API). */
  readonly base?: string;
}

/** The API in the portal's current language (`/api/v1/es/...` answers in Spanish, ADR 76). */
export const localizedApiBase = () => apiBase(API_BASE);

const buildUrl = (path: string, query?: RequestOptions["query"], base = localizedApiBase()) => {
  const url = new URL(`${base}${path}`, window.location.origin);
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
};

/** The longest a call waits to come back after a 503 with Retry-After; longer asks are shown instead. */
const MAX_RETRY_WAIT_SECONDS = 5;

/**
 * Milliseconds to wait before sending again when the server shed the call (503 with Retry-After: refused on
 * arrival, before any work, so any method may be sent again); null for any other answer.
 */
export const retryAfterRefusal = (res: Pick<Response, "status" | "headers">): number | null => {
  if (res.status !== 503) return null;
  const seconds = Number(res.headers.get("Retry-After"));
  return Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_RETRY_WAIT_SECONDS ? seconds * 1000 : null;
};

/** Waits `ms`, or rejects as fetch does when `signal` aborts first. */
const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new DOMException("Aborted", "AbortError"));
    };
    const timer = setTimeout(resolve, ms);
    if (signal?.aborted) return abort();
    signal?.addEventListener("abort", abort, { once: true });
  });

const send = async (method: string, path: string, opts: RequestOptions): Promise<Response> => {
  const headers: Record<string, string> = { Accept: "application/json" };
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.json !== undefined) {
    headers["Content-Type"] = "application/json; charset=utf-8";
    body = JSON.stringify(opts.json);
  }
  const token = opts.auth === false ? null : (opts.token ?? hooks.getToken());
  if (token) headers.Authorization = `Bearer ${token}`;
  if (!opts.quiet) requestStarted();
  try {
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = body;
    if (opts.signal) init.signal = opts.signal;
    const url = buildUrl(path, opts.query, opts.base);
    const res = await fetch(url, init);
    const wait = retryAfterRefusal(res);
    if (wait === null) return res;
    // A busy server refused the call before doing any of it (ADR 0100): come back once, when it says to.
    await pause(wait, opts.signal);
    return await fetch(url, init);
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError(0, "The Crown server could not be reached. Please check your connection and try again.");
  } finally {
    if (!opts.quiet) requestEnded();
  }
};

const readJson = async (res: Response): Promise<Record<string, unknown>> => {
  try {
    const data: unknown = await res.json();
    return data !== null && typeof data === "object" ? (data as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const failure = async (res: Response, opts: RequestOptions): Promise<ApiError> => {
  const body = await readJson(res);
  const message = typeof body.message === "string" && body.message ? body.message : res.status === 401 ? unauthorisedMessage() : fallbackMessage();
  if (res.status === 401 && !opts.keepSessionOn401 && opts.auth !== false) hooks.onUnauthorised(message);
  if (res.status === 403 && body.status === BAA_REQUIRED_STATUS) hooks.onBaaRequired();
  if (res.status === 403 && body.status === PRACTICE_BEING_VERIFIED) hooks.onPracticeBeingVerified();
  if (res.status === 403 && body.status === SECOND_FACTOR_SETUP_REQUIRED) hooks.onSecondFactorSetup?.();
  const errors = (body.errors && typeof body.errors === "object" ? body.errors : {}) as Record<string, string[]>;
  const retry = Number(res.headers.get("Retry-After"));
  return new ApiError(res.status, message, errors, typeof body.status === "string" ? body.status : undefined, Number.isFinite(retry) && retry > 0 ? retry : undefined);
};

export const request = async <T>(method: "GET" | "POST" | "PUT" | "DELETE", path: string, opts: RequestOptions = {}): Promise<Envelope<T>> => {
  const res = await send(method, path, opts);
  if (!res.ok) throw await failure(res, opts);
  const body = await readJson(res);
  return { message: typeof body.message === "string" ? body.message : "", results: body.results as T };
};

/** A binary answer (profile photo, PDF). A JSON failure body is decoded and thrown as an error (the spec). */
export const requestBlob = async (path: string, opts: RequestOptions = {}): Promise<Blob> => {
  const res = await send("GET", path, opts);
  if (!res.ok) throw await failure(res, opts);
  const type = res.headers.get("Content-Type") ?? "";
  if (type.includes("application/json")) {
    const body = await readJson(res);
    throw new ApiError(res.status, typeof body.message === "string" ? body.message : fallbackMessage());
  }
  return res.blob();
};

/** Passwords travel base64-encoded UTF-8 (transport encoding, as the spec's client does). */
export const encodePassword = (password: string): string => {
  const bytes = new TextEncoder().encode(password);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
};

export const messageOf = (error: unknown, fallback = fallbackMessage()): string =>
  error instanceof ApiError ? error.message || fallback : fallback;
