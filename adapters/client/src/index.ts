import { hc, type ClientResponse } from "hono/client";
import type { Api, ResultsIn } from "@crown/http/client-types";
import { ApiError } from "./error.ts";
import { pause, retryAfterRefusal } from "./retry.ts";
import { absolute } from "./address.ts";

/**
 * The one client of the Crown API for the portal and the kiosk (ADR 0143): Hono's `hc<AppType>`, so
 * each call names a route and takes its request and answer types from the server's routes; around it,
 * Crown's envelope (`{ message, results }`), the language prefix, the bearer token, one come-back after
 * a 503 with Retry-After, the 401 and 403 hooks, and one error type.
 */

export { ApiError, messageOf } from "./error.ts";
export { retryAfterRefusal } from "./retry.ts";
export { DEFAULT_API_BASE, withLanguage } from "./address.ts";
export type { UploadHandle } from "./upload.ts";
export type { Api, FhirApi, ResultsIn, ResultsOf } from "@crown/http/client-types";

export interface Envelope<T> {
  readonly message: string;
  readonly results: T;
}

export interface ClientSetup {
  /** The API's address with its language prefix (`/api/v1/es`): read at each call, so a language switch applies at once. */
  readonly base: () => string;
  /** The session's bearer token. */
  readonly token?: () => string | null | undefined;
  /** Headers every call carries (the kiosk's device credential). */
  readonly headers?: () => Record<string, string>;
  /** Fetch settings every call uses (the kiosk: no cache, no credentials). */
  readonly init?: RequestInit;
  /** A 401 on a call that had a session: the session is gone. */
  readonly onUnauthorised?: (message: string) => void;
  /** A 403 with the spec's `status` (the BAA due, the practice being verified, a revoked device). */
  readonly onForbidden?: (status: string | undefined) => void;
  /** A call starts (not a quiet one); the function answered is called when it ends (the portal's loader). */
  readonly onRequest?: () => () => void;
  /** The words for failures the server did not put into words, in the screen's language. */
  readonly messages: { readonly unreachable: () => string; readonly failed: () => string; readonly unauthorised: () => string };
}

export interface CallOptions {
  /** false: sent without a token (sign-in, sign-up, the physician search). */
  readonly auth?: boolean;
  /** A token other than the setup's (the kiosk's session, a new tab resuming the browser's session). */
  readonly token?: string | null;
  /** A 401 here is an answer for the form (a wrong old password), not a lost session. */
  readonly keepSessionOn401?: boolean;
  /** Not shown by the loader (background calls). */
  readonly quiet?: boolean;
  readonly signal?: AbortSignal;
  /** Headers of this call only (a visitor's chat token). */
  readonly headers?: Record<string, string>;
}

export type Answered = ClientResponse<unknown, number, string>;


const readJson = async (res: Response): Promise<Record<string, unknown>> => {
  try {
    const data: unknown = await res.json();
    return data !== null && typeof data === "object" ? (data as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

export const createClient = (setup: ClientSetup) => {
  const headersFor = (opts: CallOptions): Record<string, string> => {
    const headers: Record<string, string> = { Accept: "application/json", ...setup.headers?.(), ...opts.headers };
    const token = opts.auth === false ? null : opts.token !== undefined ? opts.token : setup.token?.();
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  };

  /** fetch as hc calls it, with this call's headers, the loader, and one come-back after a shed call. */
  const fetcher =
    (opts: CallOptions) =>
    async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const headers = new Headers(init?.headers);
      for (const [name, value] of Object.entries(headersFor(opts))) headers.set(name, value);
      const request: RequestInit = { ...setup.init, ...init, headers };
      if (opts.signal) request.signal = opts.signal;
      const done = opts.quiet ? undefined : setup.onRequest?.();
      try {
        const res = await fetch(input, request);
        const wait = retryAfterRefusal(res);
        if (wait === null) return res;
        // A busy server refused the call before doing any of it (ADR 0100): come back once, when it says to.
        await pause(wait, opts.signal);
        return await fetch(input, request);
      } catch (cause) {
        if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
        throw new ApiError(0, setup.messages.unreachable());
      } finally {
        done?.();
      }
    };

  const failure = (status: number, headers: { get(name: string): string | null }, body: Record<string, unknown>, opts: CallOptions): ApiError => {
    const message = typeof body.message === "string" && body.message ? body.message : status === 401 ? setup.messages.unauthorised() : setup.messages.failed();
    const code = typeof body.status === "string" ? body.status : undefined;
    if (status === 401 && !opts.keepSessionOn401 && opts.auth !== false) setup.onUnauthorised?.(message);
    if (status === 403) setup.onForbidden?.(code);
    const errors = (body.errors && typeof body.errors === "object" ? body.errors : {}) as Record<string, string[]>;
    const retry = Number(headers.get("Retry-After"));
    return new ApiError(status, message, errors, code, Number.isFinite(retry) && retry > 0 ? retry : undefined, body.data);
  };

  const api = (opts: CallOptions = {}): Api => hc(absolute(setup.base()), { fetch: fetcher(opts) }) as unknown as Api;

  const envelope = async <R extends Answered>(res: R, opts: CallOptions): Promise<Envelope<ResultsIn<R>>> => {
    const body = await readJson(res as unknown as Response);
    if (!res.ok) throw failure(res.status, res.headers, body, opts);
    return { message: typeof body.message === "string" ? body.message : "", results: body.results as ResultsIn<R> };
  };

  const blobOf = async (res: Response, opts: CallOptions): Promise<Blob> => {
    if (!res.ok) throw failure(res.status, res.headers, await readJson(res), opts);
    if ((res.headers.get("Content-Type") ?? "").includes("application/json")) {
      const body = await readJson(res);
      throw new ApiError(res.status, typeof body.message === "string" ? body.message : setup.messages.failed());
    }
    return res.blob();
  };

  return {
    /** A route's answer as `{ message, results }`, typed from the route; a failure throws `ApiError`. */
    call: async <R extends Answered>(pick: (api: Api) => Promise<R>, opts: CallOptions = {}): Promise<Envelope<ResultsIn<R>>> =>
      envelope(await pick(api(opts)), opts),
    /** A route's `results` alone. */
    results: async <R extends Answered>(pick: (api: Api) => Promise<R>, opts: CallOptions = {}): Promise<ResultsIn<R>> =>
      (await envelope(await pick(api(opts)), opts)).results,
    /** A binary answer (a PDF, a photo, a CSV); a JSON failure body is thrown as `ApiError`. */
    blob: async (pick: (api: Api) => Promise<Answered>, opts: CallOptions = {}): Promise<Blob> =>
      blobOf((await pick(api(opts))) as unknown as Response, opts),
    // For the client's other calls (extras.ts), kept apart so that the sign-in page carries none of them.
    /** The typed routes, for this call's options. */
    api,
    /** The API's address in the current language, absolute. */
    base: () => absolute(setup.base()),
    /** fetch with this call's headers, the loader and the come-back after a shed call. */
    send: (input: string, init: RequestInit, opts: CallOptions) => fetcher(opts)(input, init),
    /** This call's headers (Accept, the token, the setup's and the call's own). */
    headers: headersFor,
    /** A failed answer as `ApiError`, after the 401 and 403 hooks. */
    failure,
    blobOf,
    /** The words for an unreachable server. */
    unreachable: setup.messages.unreachable,
  };
};

export type CrownClient = ReturnType<typeof createClient>;

/** Passwords travel base64-encoded UTF-8 (transport encoding, api-contract.md). */
export const encodePassword = (password: string): string => {
  const bytes = new TextEncoder().encode(password);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
};
