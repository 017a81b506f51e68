import { hc } from "hono/client";
import type { Api, FhirApi, ResultsIn } from "@crown/http/client-types";
import { absolute } from "./address.ts";
import type { Answered, CallOptions, CrownClient } from "./index.ts";
import type { UploadHandle } from "./upload.ts";

/*
 * The client's less common calls, apart from `createClient` so that a page that makes none of them (the
 * sign-in page, with its 150 KB budget, ADR 74) does not carry them.
 */

/** A file at an address the server answered (a chat attachment's `url`), relative to the API or absolute. */
export const fileAt = async (client: CrownClient, url: string, opts: CallOptions = {}): Promise<Blob> => {
  const base = client.base();
  const target = url.startsWith("/api/") || /^https?:/.test(url) ? new URL(url, base).href : `${base}${url}`;
  return client.blobOf(await client.send(target, { method: "GET" }, opts), opts);
};

/** A binary answer of the FHIR API at `base` (`/fhir/R4` on the API's server). */
export const fhirBlob = async (client: CrownClient, base: string, pick: (api: FhirApi) => Promise<Answered>, opts: CallOptions = {}): Promise<Blob> => {
  const fhir = hc(absolute(base), { fetch: (input: RequestInfo | URL, init?: RequestInit) => client.send(String(input), init ?? {}, opts) }) as unknown as FhirApi;
  return client.blobOf((await pick(fhir)) as unknown as Response, opts);
};

/** The address of a route (an EventSource's `/events`, which cannot send headers). */
export const addressOf = (client: CrownClient, pick: (api: Api) => { $url: () => URL }): URL => pick(client.api()).$url();

/**
 * A multipart upload with progress (fetch reports none, so XMLHttpRequest), to the route `pick` names,
 * its answer typed from that route's `$post`.
 */
export const upload = <E extends { $url: (args?: never) => URL; $post: (...args: never[]) => Promise<Answered> }>(
  client: CrownClient,
  pick: (api: Api) => E,
  args: { readonly query?: Record<string, string>; readonly form: FormData },
  onProgress: (loaded: number, total: number) => void,
  opts: CallOptions = {},
): UploadHandle<ResultsIn<Awaited<ReturnType<E["$post"]>>>> => {
  const url = pick(client.api(opts)).$url();
  for (const [name, value] of Object.entries(args.query ?? {})) url.searchParams.set(name, value);
  // XMLHttpRequest's code is loaded on the first upload.
  let stopped = false;
  let sending: UploadHandle<unknown> | null = null;
  const promise = import("./upload.ts")
    .then(({ sendWithProgress }) => {
      if (stopped) throw new DOMException("Upload cancelled", "AbortError");
      const handle = sendWithProgress(url.href, args.form, client.headers(opts), onProgress, client.unreachable);
      sending = handle;
      return handle.promise;
    })
    .then(({ status, body, headers }) => {
      if (status >= 200 && status < 300) return body.results as ResultsIn<Awaited<ReturnType<E["$post"]>>>;
      throw client.failure(status, headers, body, opts);
    });
  return {
    promise,
    abort: () => {
      stopped = true;
      sending?.abort();
    },
  };
};
