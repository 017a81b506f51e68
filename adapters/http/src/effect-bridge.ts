import { Cause, Effect, Exit, type ManagedRuntime, Option } from "effect";
import type { Context as HonoContext } from "hono";
import { type Caller, CurrentUser, type DomainError, RequestContext } from "@crown/core";
import type { Env } from "./env.ts";

/** The body and status a domain error answers with (api-contract.md). */
export const errorResponse = (error: DomainError): { status: 401 | 403 | 404 | 409 | 413 | 422 | 429; body: Record<string, unknown>; retryAfter?: number } => {
  switch (error._tag) {
    case "ValidationFailed":
      return { status: 422, body: { message: error.message, errors: error.errors } };
    case "Unauthenticated":
      return { status: 401, body: { message: error.message } };
    case "Forbidden":
      return { status: 403, body: error.status ? { message: error.message, status: error.status } : { message: error.message } };
    case "NotFound":
      return { status: 404, body: { message: error.message } };
    case "Conflict":
      return { status: 409, body: { message: error.message } };
    case "TooLarge":
      return { status: 413, body: { message: error.message } };
    case "RateLimited":
      return { status: 429, body: { message: error.message }, retryAfter: error.retryAfterSeconds };
  }
};

export class HttpFailure extends Error {
  constructor(readonly response: Response) {
    super("http failure");
  }
}

/**
 * Runs a use case for this request: provides who is asking and from where, and turns a domain
 * error into its HTTP answer (thrown as HttpFailure, caught by the app's error handler). Defects
 * become a 500 without details; the request id ties the log line to the answer.
 */
export const runUseCase = async <A, R>(c: HonoContext<Env>, effect: Effect.Effect<A, DomainError, R>): Promise<A> => {
  const caller = c.get("caller") as Caller | undefined;
  const withRequest = effect.pipe(
    Effect.provideService(RequestContext, { ip: c.get("clientIp") ?? null, requestId: c.get("requestId") }),
    (e) => (caller ? Effect.provideService(e, CurrentUser, caller) : e),
  ) as Effect.Effect<A, DomainError, never>;
  const runtime = c.get("runtime") as ManagedRuntime.ManagedRuntime<never, never>;
  const exit = await runtime.runPromiseExit(withRequest);
  if (Exit.isSuccess(exit)) return exit.value;
  const failure = Cause.failureOption(exit.cause);
  if (Option.isSome(failure)) {
    const { status, body, retryAfter } = errorResponse(failure.value);
    const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
    if (retryAfter !== undefined) headers["retry-after"] = String(Math.max(1, Math.ceil(retryAfter)));
    throw new HttpFailure(new Response(JSON.stringify(body), { status, headers }));
  }
  throw new Error(`use case failed: ${Cause.pretty(exit.cause)}`);
};

/** The success envelope of every JSON call. */
export const ok = <T>(message: string, results: T) => ({ message, results });
