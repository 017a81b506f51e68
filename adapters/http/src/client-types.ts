/*
 * The one contract across the wire (ADR 41): the browser apps take their answers' types from the
 * routes (`AppType`) through hono/client's types. Types only: importing them (`import type`) puts
 * nothing of the server, Effect or core's runtime into a bundle.
 */
import type { ClientResponse, hc } from "hono/client";
import type { AppType } from "./app.ts";

/** The typed client of the API, for its types. */
export type Api = ReturnType<typeof hc<AppType>>;

type Answer<F> = F extends (...args: never[]) => Promise<infer R> ? R : never;
/** The `results` of a route's success answer, as `ok(message, results)` writes them. */
export type ResultsOf<F> =
  Answer<F> extends ClientResponse<infer Body, infer Status, "json"> ? (Status extends 200 | 201 ? (Body extends { results: infer T } ? T : never) : never) : never;
