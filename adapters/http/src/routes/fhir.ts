import { Cause, Effect, Exit, type ManagedRuntime, Option } from "effect";
import { Hono } from "hono";
import type { Context } from "hono";
import { Accounts, CurrentUser, type DomainError, NotFound, RequestContext } from "@crown/core";
import {
  CODE_SYSTEM_ID,
  crownCodeSystem,
  FHIR_JSON,
  FHIR_PATH,
  operationOutcome,
  readCapabilityStatement,
  readDiagnosticReport,
  readObservation,
  readPatient,
  readPractitioner,
  reportDocument,
  type Resource,
  searchObservations,
} from "@crown/core/fhir/index";
import type { Env } from "../env.ts";
import { errorResponse } from "../effect-bridge.ts";
import { bearerToken, urlProblem } from "../request.ts";

/** Where the FHIR R4 API is mounted (issue 20). */
export const FHIR_BASE = FHIR_PATH;

type IssueCode = Parameters<typeof operationOutcome>[0];
const ISSUE: Record<number, IssueCode> = { 400: "invalid", 401: "login", 403: "forbidden", 404: "not-found", 405: "invalid", 409: "conflict", 413: "too-long", 429: "throttled" };

const fhirJson = (body: Resource, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": `${FHIR_JSON}; charset=utf-8`, ...headers } });

/** A domain error as FHIR says it: an OperationOutcome; a field error is FHIR's 400, not the JSON API's 422. */
const failure = (error: DomainError) => {
  const { status, retryAfter } = errorResponse(error);
  const fhirStatus = status === 422 ? 400 : status;
  const headers: Record<string, string> = retryAfter !== undefined ? { "retry-after": String(Math.max(1, Math.ceil(retryAfter))) } : {};
  if (status === 401) headers["www-authenticate"] = "Bearer";
  return fhirJson(operationOutcome(ISSUE[fhirStatus] ?? "exception", error.message), fhirStatus, headers);
};

/**
 * Runs a FHIR use case for this request: the bearer token resolved to the caller (unless the call
 * is public), the request's address and id given for the audit, any failure an OperationOutcome.
 */
type Log = ((line: Record<string, unknown>) => void) | undefined;

const runWith = async (log: Log, c: Context<Env>, effect: Effect.Effect<Resource, DomainError, any>, options: { public?: boolean } = {}) => {
  const authenticated = options.public
    ? effect
    : Effect.flatMap(
        Effect.flatMap(Accounts.authenticate(bearerToken(c)), (caller) => Accounts.admitCaller(caller, { duringSetup: false })),
        (caller) => Effect.provideService(effect, CurrentUser, caller),
      );
  const withRequest = Effect.provideService(authenticated, RequestContext, { ip: c.get("clientIp") ?? null, requestId: c.get("requestId") });
  const runtime = c.get("runtime") as ManagedRuntime.ManagedRuntime<never, never>;
  const exit = await runtime.runPromiseExit(withRequest as Effect.Effect<Resource, DomainError, never>);
  if (Exit.isSuccess(exit)) return fhirJson(exit.value);
  const error = Cause.failureOption(exit.cause);
  if (Option.isSome(error)) return failure(error.value);
  // A defect: logged with the request id (no stack to the caller), answered as FHIR, not as the JSON API's 500.
  log?.({ level: "error", requestId: c.get("requestId"), path: "fhir", error: Cause.pretty(exit.cause).slice(0, 2000) });
  return fhirJson(operationOutcome("exception", `Something went wrong. Please try again. (request ${c.get("requestId")})`), 500);
};

/** The FHIR R4 API: read-only, JSON only; the same tokens, authorization and read audit as the rest of the API. */
export const fhirRoutes = (options: {
  runtime: ManagedRuntime.ManagedRuntime<any, never>;
  clientIp: (c: Context<Env>) => string | null;
  log?: Log;
}) => {
  const run = (c: Context<Env>, effect: Effect.Effect<Resource, DomainError, any>, opts: { public?: boolean } = {}) => runWith(options.log, c, effect, opts);
  return new Hono<Env>()
    .use("*", async (c, next) => {
      const problem = urlProblem(c.req.url);
      if (problem) return fhirJson(operationOutcome(problem.status === 404 ? "not-found" : "invalid", "The address holds text no resource or parameter may have."), problem.status === 404 ? 404 : 400);
      if (c.req.method !== "GET" && c.req.method !== "HEAD") return fhirJson(operationOutcome("invalid", "This FHIR API is read-only."), 405, { allow: "GET" });
      c.set("runtime", options.runtime);
      c.set("clientIp", options.clientIp(c));
      await next();
      c.res.headers.set("cache-control", "no-store");
      c.res.headers.set("x-request-id", c.get("requestId"));
    })
    .get("/metadata", (c) => run(c, readCapabilityStatement, { public: true }))
    .get("/CodeSystem/:id", (c) =>
      run(c, c.req.param("id") === CODE_SYSTEM_ID ? Effect.succeed(crownCodeSystem()) : Effect.fail(NotFound.of("CodeSystem")), { public: true }),
    )
    .get("/Patient/:id", (c) => run(c, readPatient(c.req.param("id"))))
    .get("/Practitioner/:id", (c) => run(c, readPractitioner(c.req.param("id"))))
    .get("/DiagnosticReport/:id", (c) => run(c, readDiagnosticReport(c.req.param("id"))))
    .get("/DiagnosticReport/:id/:operation", (c) =>
      c.req.param("operation") === "$document" ? run(c, reportDocument(c.req.param("id"))) : fhirJson(operationOutcome("not-found", "Unknown operation"), 404),
    )
    .get("/Observation/:id", (c) => run(c, readObservation(c.req.param("id"))))
    .get("/Observation", (c) => run(c, searchObservations([...new URL(c.req.url).searchParams])))
    .all("*", (c) => fhirJson(operationOutcome("not-found", "No such resource or interaction; GET metadata for what is served."), 404));
};
