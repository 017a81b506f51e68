import { Cause, Effect, Exit, type ManagedRuntime, Option } from "effect";
import type { Context as HonoContext } from "hono";
import {
  type Learning,
  type AccountHooks,
  type AccountsConfig,
  type AuthenticatorCodes,
  type CommonPasswords,
  type SecondFactors,
  type SecretBox,
  type WebAuthn,
  type AuditLog,
  type BaaSignatures,
  type Babies,
  type BlobStore,
  type Caller,
  type ChatConfig,
  type ChatMessages,
  type ContentSniffer,
  type Conversations,
  CurrentUser,
  type Delegations,
  type PatientLinkRequests,
  type DomainError,
  type KioskBabyCodes,
  type KioskDevices,
  type KioskPins,
  type KioskSessions,
  type LiveEvents,
  type LiveFeed,
  type Mailer,
  type MarketingLeads,
  type Notifications,
  type OneTimeTokens,
  type PasswordHasher,
  type PhysicianDirectory,
  type QuizAnswerKey,
  type QuizAttempts,
  type Random,
  type RateLimiter,
  RequestContext,
  type Secrets,
  type Sessions,
  type Transactor,
  type UploadHistory,
  type Users,
  type VisitorTokens,
} from "@crown/core";
import type { RemovalRequests } from "@crown/core/accounts/removal";
import type { DeviceNames, SignedInDevices } from "@crown/core/accounts/devices";
import type { ArchiveMaker, DataExports, FamilyRecords } from "@crown/core/family-data/model";
import type { AuditTrail } from "@crown/core/audit/model";
import type { JobQueue } from "@crown/core/shared/jobs";
import type { IdempotencyKeys } from "@crown/core/shared/idempotency";
import type {
  Attachments,
  ContentHasher,
  FrameExtractor,
  Images,
  Measurements,
  ReadFlags,
  ReportConfig,
  ReportRenderer,
  ReportVersions,
  Reports,
  ReviewActions,
} from "@crown/core/report/index";
import type { Env } from "./env.ts";

/**
 * Every port the routes' use cases may need. The server's runtime must provide them all (`createHttpApp`
 * takes a `ManagedRuntime<HttpPorts>`), and `runUseCase` accepts only a use case whose requirements are
 * among them: a port the composition forgets, or a use case needing a port nobody lists, is a compile error.
 */
export type HttpPorts =
  | AccountHooks
  | AuthenticatorCodes
  | CommonPasswords
  | SecondFactors
  | SecretBox
  | WebAuthn
  | AccountsConfig
  | Attachments
  | AuditLog
  | AuditTrail
  | BaaSignatures
  | Babies
  | BlobStore
  | ChatConfig
  | ChatMessages
  | ContentHasher
  | ContentSniffer
  | Conversations
  | Delegations
  | DeviceNames
  | SignedInDevices
  | ArchiveMaker
  | DataExports
  | FamilyRecords
  | FrameExtractor
  | IdempotencyKeys
  | Images
  | JobQueue
  | KioskBabyCodes
  | KioskDevices
  | KioskPins
  | KioskSessions
  | LiveEvents
  | LiveFeed
  | Mailer
  | MarketingLeads
  | Measurements
  | Notifications
  | OneTimeTokens
  | PasswordHasher
  | PatientLinkRequests
  | PhysicianDirectory
  | QuizAnswerKey
  | QuizAttempts
  | Random
  | RateLimiter
  | ReadFlags
  | RemovalRequests
  | ReportConfig
  | ReportRenderer
  | ReportVersions
  | Reports
  | Learning.ResearchConsents
  | Learning.ReviewedSets
  | Learning.InstalledModels
  | Learning.ShadowMeasurements
  | Learning.ModelRuntime
  | Learning.SetFiles
  | ReviewActions
  | Secrets
  | Sessions
  | Transactor
  | UploadHistory
  | Users
  | VisitorTokens;

/** The server's runtime, as the routes see it. */
export type HttpRuntime = ManagedRuntime.ManagedRuntime<HttpPorts, never>;

/** What a use case run for a request may require: the ports, plus who is asking and from where (provided here). */
export type UseCaseContext = HttpPorts | RequestContext | CurrentUser;

/** The body and status a domain error answers with (api-contract.md). */
export const errorResponse = (error: DomainError): { status: 401 | 403 | 404 | 409 | 413 | 422 | 429; body: Record<string, unknown>; retryAfter?: number } => {
  switch (error._tag) {
    case "ValidationFailed":
      return { status: 422, body: { message: error.message, errors: error.errors } };
    case "Unauthenticated":
      return { status: 401, body: { message: error.message } };
    case "Forbidden":
      return { status: 403, body: { message: error.message, ...(error.status ? { status: error.status } : {}), ...(error.data ? { data: error.data } : {}) } };
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
export const runUseCase = async <A, R extends UseCaseContext>(c: HonoContext<Env>, effect: Effect.Effect<A, DomainError, R>): Promise<A> => {
  const caller: Caller | undefined = c.get("caller");
  const withRequest = Effect.provideService(effect, RequestContext, {
    ip: c.get("clientIp") ?? null,
    requestId: c.get("requestId"),
    language: c.get("language"),
    userAgent: c.req.header("user-agent") ?? null,
  });
  const exit = await c.get("runtime").runPromiseExit(withCaller(withRequest, caller));
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

/**
 * Provides the caller, when the request has one. Without one, a use case that asks for the caller dies
 * (a 500): only routes behind the session middleware run such use cases, which is why the type may drop it.
 */
const withCaller = <A, E, R>(effect: Effect.Effect<A, E, R>, caller: Caller | undefined): Effect.Effect<A, E, Exclude<R, CurrentUser>> =>
  caller ? Effect.provideService(effect, CurrentUser, caller) : (effect as Effect.Effect<A, E, Exclude<R, CurrentUser>>);

/** The success envelope of every JSON call. */
export const ok = <T>(message: string, results: T) => ({ message, results });
