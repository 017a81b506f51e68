/*
 * The one contract across the wire: answers' types come from the server's routes (`AppType`, exported
 * by adapters/http's app.ts) through hono/client's types. Type-only: nothing of the server, Effect or
 * core's runtime reaches a browser bundle through this file.
 */
import type { AppType } from "@crown/http";
import type { ClientResponse, hc } from "hono/client";

/** The typed client of the API (hono/client over the server's `AppType`): used for its types only. */
export type Api = ReturnType<typeof hc<AppType>>;

type Answer<F> = F extends (...args: never[]) => Promise<infer R> ? R : never;
/** The `results` of a route's success answer, as the server's `ok(message, results)` writes them. */
export type ResultsOf<F> = Answer<F> extends ClientResponse<infer Body, infer Status, "json"> ? (Status extends 200 | 201 ? (Body extends { results: infer T } ? T : never) : never) : never;
