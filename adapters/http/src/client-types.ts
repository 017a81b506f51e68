/*
 * The one contract across the wire (ADR 41, ADR 0143): the browser apps call the routes through
 * `hc<AppType>` (@crown/client), so every request's and answer's type comes from the routes. Types only:
 * importing them (`import type`) puts nothing of the server, Effect or core's runtime into a bundle.
 */
import type { ClientResponse, hc } from "hono/client";
import type { AppType } from "./app.ts";
import type { fhirRoutes } from "./routes/fhir.ts";

/** The typed client of the API. */
export type Api = ReturnType<typeof hc<AppType>>;
/** The typed client of the FHIR R4 API (`/fhir/R4`). */
export type FhirApi = ReturnType<typeof hc<ReturnType<typeof fhirRoutes>>>;

/** The `results` of a route's success answer, as `ok(message, results)` writes them, from the answer's type. */
export type ResultsIn<R> = R extends ClientResponse<infer Body, infer Status, "json"> ? (Status extends 200 | 201 ? (Body extends { results: infer T } ? T : never) : never) : never;

type Answer<F> = F extends (...args: never[]) => Promise<infer R> ? R : never;
/** The `results` of a route's success answer, from the route's method (`Api["user"]["profile"]["$get"]`). */
export type ResultsOf<F> = ResultsIn<Answer<F>>;
