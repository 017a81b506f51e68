import { Context, Effect, Option } from "effect";
import { DEFAULT_LANGUAGE, type Language } from "./i18n.ts";

/**
 * Ports shared by every feature. Adapters in adapters/* implement them; tests provide in-memory
 * layers. Infrastructure failures are defects (they surface as 500s), so ports fail only with
 * domain errors where a caller can act on them.
 */

/** Ids and secrets. Identifiers are ULIDs on the wire, never row numbers. */
export interface RandomPort {
  readonly identifier: () => string;
  /** `bytes` random bytes, base64url. */
  readonly secret: (bytes: number) => string;
}
export class Random extends Context.Tag("crown/Random")<Random, RandomPort>() {}

export interface PasswordHasherPort {
  readonly hash: (password: string) => Effect.Effect<string>;
  readonly verify: (hash: string, password: string) => Effect.Effect<boolean>;
}
export class PasswordHasher extends Context.Tag("crown/PasswordHasher")<PasswordHasher, PasswordHasherPort>() {}

/** Digests and signatures for secrets: tokens are stored only as digests; links carry an HMAC. */
export interface SecretsPort {
  /** A one-way digest (hex) of a secret, for storage and lookup. */
  readonly digest: (secret: string) => string;
  readonly sign: (payload: string) => string;
  /** Constant-time comparison of a signature against the payload's own. */
  readonly verifySignature: (payload: string, signature: string) => boolean;
}
export class Secrets extends Context.Tag("crown/Secrets")<Secrets, SecretsPort>() {}

export interface OutgoingMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}
export interface MailerPort {
  readonly send: (mail: OutgoingMail) => Effect.Effect<void>;
}
export class Mailer extends Context.Tag("crown/Mailer")<Mailer, MailerPort>() {}

export interface StoredBlob {
  readonly body: ReadableStream<Uint8Array>;
  readonly contentType: string;
  readonly size: number;
}
export interface BlobStorePort {
  /** Streams `body` to `key`. Keys are never reused for different content. */
  readonly put: (key: string, body: Uint8Array | ReadableStream<Uint8Array>, contentType: string) => Effect.Effect<{ size: number }>;
  readonly get: (key: string) => Effect.Effect<Option.Option<StoredBlob>>;
  readonly remove: (key: string) => Effect.Effect<void>;
}
export class BlobStore extends Context.Tag("crown/BlobStore")<BlobStore, BlobStorePort>() {}

/** Decides a file's type by its bytes, not its name. */
export interface ContentSnifferPort {
  /** The type by the bytes; for an image, its size in pixels too when the head holds it (read from the header, nothing decoded). */
  readonly sniff: (head: Uint8Array) => Effect.Effect<Option.Option<{ mime: string; ext: string; width?: number; height?: number }>>;
}
export class ContentSniffer extends Context.Tag("crown/ContentSniffer")<ContentSniffer, ContentSnifferPort>() {}

export interface AuditEntry {
  readonly action: string;
  readonly actorId: string | null;
  readonly subjectId?: string | null;
  /** The physician a staff member or kiosk acted for, when not the actor. */
  readonly onBehalfOf?: string | null;
  readonly details?: Record<string, unknown>;
}
export type StampedAuditEntry = AuditEntry & { ip: string | null; requestId?: string | null; at: Date };
/** Append-only: there is no way to change or delete an entry through this port. */
export interface AuditLogPort {
  readonly record: (entry: StampedAuditEntry) => Effect.Effect<void>;
  /** Several entries in one write (a page of a list: one row per child, one insert per request). */
  readonly recordMany: (entries: ReadonlyArray<StampedAuditEntry>) => Effect.Effect<void>;
}
export class AuditLog extends Context.Tag("crown/AuditLog")<AuditLog, AuditLogPort>() {}

export interface RateLimitVerdict {
  readonly allowed: boolean;
  readonly retryAfterSeconds: number;
}
/** A fixed-window counter shared by every server process (kept in the database). */
export interface RateLimiterPort {
  readonly hit: (key: string, limit: number, windowSeconds: number, now: Date) => Effect.Effect<RateLimitVerdict>;
  /** Forgets the buckets of every key given (one statement however many). */
  readonly reset: (...keys: ReadonlyArray<string>) => Effect.Effect<void>;
  /** The bucket's window as it stands (count 0, no start, once the window has passed), without counting a hit. */
  readonly peek: (key: string, windowSeconds: number, now: Date) => Effect.Effect<{ count: number; windowStart: Date | null }>;
}
export class RateLimiter extends Context.Tag("crown/RateLimiter")<RateLimiter, RateLimiterPort>() {}

/** Runs an effect in one database transaction: all of its repository calls commit or none do. */
export interface TransactorPort {
  readonly run: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>;
}
export class Transactor extends Context.Tag("crown/Transactor")<Transactor, TransactorPort>() {}

/** Who is calling, from where; set by the driving adapter for every request. */
export interface RequestInfo {
  readonly ip: string | null;
  readonly requestId: string;
  /** The language of the call's API prefix (a new account's first language); English when not given. */
  readonly language?: Language;
  /** The caller's User-Agent header (recorded with a new session: the profile's signed-in devices). */
  readonly userAgent?: string | null;
}
export class RequestContext extends Context.Tag("crown/RequestContext")<RequestContext, RequestInfo>() {}

/** The language of the call (its API prefix); English outside a request (jobs, the CLI). */
export const requestLanguage: Effect.Effect<Language> = Effect.map(Effect.serviceOption(RequestContext), (req) =>
  Option.isSome(req) && req.value.language ? req.value.language : DEFAULT_LANGUAGE,
);

export const transaction = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | Transactor> =>
  Effect.flatMap(Transactor, (t) => t.run(self));

const stamp = Effect.gen(function* () {
  const req = yield* Effect.serviceOption(RequestContext);
  const at = new Date(yield* Effect.clockWith((c) => c.currentTimeMillis));
  return { ip: Option.isSome(req) ? req.value.ip : null, requestId: Option.isSome(req) ? req.value.requestId : null, at };
});

/** Appends an audit entry stamped with the request's address and id, and the current time. */
export const audit = (entry: AuditEntry): Effect.Effect<void, never, AuditLog> =>
  Effect.gen(function* () {
    const log = yield* AuditLog;
    yield* log.record({ ...entry, ...(yield* stamp) });
  });

/** Appends several entries, stamped alike, in one write; nothing when there are none. */
export const auditAll = (entries: ReadonlyArray<AuditEntry>): Effect.Effect<void, never, AuditLog> =>
  Effect.gen(function* () {
    if (entries.length === 0) return;
    const log = yield* AuditLog;
    const stamped = yield* stamp;
    yield* log.recordMany(entries.map((e) => ({ ...e, ...stamped })));
  });

export const now: Effect.Effect<Date> = Effect.map(Effect.clockWith((c) => c.currentTimeMillis), (ms) => new Date(ms));
