import type { MiddlewareHandler } from "hono";
import type { Schema } from "effect";
import type { Env } from "./env.ts";

/*
 * What a route takes, declared for the typed client (`hc<AppType>`, @crown/client, ADR 0143): the JSON
 * body as core's request schema's encoded form, the query parameters by name. Declarations only: the
 * use case decodes and validates the body with the same schema (every input is hostile until parsed),
 * so these middlewares pass the request on untouched and a renamed field fails the apps' typecheck.
 */

type Declared<I extends object> = MiddlewareHandler<Env, string, { in: I; out: I }>;
const declared = <I extends object>(): Declared<I> => async (_c, next) => {
  await next();
};

type Query = Record<string, string | number | boolean | undefined>;

/** A schema, or a schema built for a day (`BabyRequest(today)`). */
type SchemaLike = Schema.Schema.Any | ((...args: never[]) => Schema.Schema.Any);
type EncodedOf<S> = S extends Schema.Schema<infer _A, infer E, infer _R> ? E : never;
type Encoded<S> = S extends (...args: never[]) => infer R ? EncodedOf<R> : EncodedOf<S>;

/** The route's JSON body is `schema`'s encoded form (what the browser sends). */
export const takesJson = <S extends SchemaLike>(_schema: S): Declared<{ json: Encoded<S> }> => declared();

/** The route's JSON body, for a body no core schema names (e.g. an empty `{}`). */
export const takesBody = <T extends object>(): Declared<{ json: T }> => declared();

/** The route's query parameters (`?name=`), typed for the client; a call may send none (the use case answers what is missing). */
export const takesQuery = <Q extends Query>(): Declared<{ query?: Q }> => declared();

/** A list's `?page=` (1 when absent). */
export const paged = takesQuery<{ page?: number | string }>();

/** A multipart body (files), as the browser's FormData. */
export const takesForm = <F extends Record<string, unknown>>(): Declared<{ form: F }> => declared();
