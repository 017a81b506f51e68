import { Cause, Effect, Exit, Layer, Option } from "effect";
import {
  AccountsConfig,
  type AccountsSettings,
  type Caller,
  CurrentUser,
  defaultAccountsSettings,
  type OneTimeToken,
  OneTimeTokens,
  type OneTimeTokensPort,
  type Session,
  Sessions,
  type SessionsPort,
  type User,
  Users,
  type UsersPort,
} from "../accounts/model.ts";
import {
  AuditLog,
  type AuditLogPort,
  type StampedAuditEntry,
  BlobStore,
  type BlobStorePort,
  ContentSniffer,
  Mailer,
  type MailerPort,
  type OutgoingMail,
  PasswordHasher,
  Random,
  type RandomPort,
  RateLimiter,
  type RateLimiterPort,
  RequestContext,
  type RequestInfo,
  Secrets,
  type SecretsPort,
  Transactor,
  type TransactorPort,
} from "../shared/ports.ts";
import { type ControllableClock, DEFAULT_START, makeControllableClock } from "./clock.ts";
import { CommonPasswords } from "../accounts/common-passwords.ts";
import { AuthenticatorCodes, SecondFactors, SecretBox, WebAuthn } from "../accounts/second-factor-model.ts";
import { makeMemorySecondFactors, testAuthenticatorCodes, testCommonPasswords, testSecretBox, testWebAuthn } from "./second-factors.ts";
import { directoryPage } from "./directory.ts";
import { makeTestContentSniffer, readAll } from "./content.ts";
import { makeTestPasswordHasher, makeTestRandom, makeTestSecrets } from "./crypto.ts";

export * from "./clock.ts";
export * from "./content.ts";
export * from "./crypto.ts";

/**
 * In-memory implementations of every port of core, for unit and property tests.
 *
 * Each `makeTestWorld()` owns its state (plain Maps and arrays that tests may read), and its
 * `layer` closes over that state, so the layer can be provided to any number of effects and they
 * all see the same world. Time is a controllable clock: `world.clock.advance(seconds)`.
 *
 * Nothing here is fit for production: the password "hash" is reversible and the digests are not
 * cryptographic. core must stay free of node built-ins, so no node:crypto either.
 */

export type RecordedAudit = StampedAuditEntry;
export interface StoredTestBlob {
  readonly bytes: Uint8Array;
  readonly contentType: string;
}
export interface RateBucket {
  windowStart: number;
  count: number;
}

/** Every service the in-memory world provides. */
export type TestServices =
  | Users
  | Sessions
  | OneTimeTokens
  | AuditLog
  | RateLimiter
  | Transactor
  | Mailer
  | BlobStore
  | ContentSniffer
  | PasswordHasher
  | Secrets
  | Random
  | AccountsConfig
  | RequestContext
  | SecondFactors
  | SecretBox
  | AuthenticatorCodes
  | WebAuthn
  | CommonPasswords;

export interface TestWorldOptions {
  readonly start?: Date | number;
  readonly settings?: Partial<AccountsSettings>;
  readonly request?: Partial<RequestInfo>;
}

export interface TestWorld {
  readonly layer: Layer.Layer<TestServices>;
  readonly clock: ControllableClock;
  readonly users: Map<string, User>;
  readonly sessions: Map<string, Session>;
  readonly tokens: Map<string, OneTimeToken>;
  readonly audit: RecordedAudit[];
  /** Sent mails, in order. Not rolled back with a failed transaction (like real SMTP). */
  readonly mails: OutgoingMail[];
  readonly blobs: Map<string, StoredTestBlob>;
  readonly rateLimits: Map<string, RateBucket>;
  /** Mutable: the settings every later run sees. */
  readonly settings: AccountsSettings;
  /** Mutable: the caller's address and request id every later run sees. */
  readonly request: { ip: string | null; requestId: string };
  readonly secrets: SecretsPort;
  readonly random: RandomPort;
  /** Counts of transactions committed and rolled back. */
  readonly transactions: { committed: number; rolledBack: number };
  /** Runs an effect in the world; resolves with its value, rejects with its failure (the error itself). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, TestServices>) => Promise<A>;
  /** Runs an effect in the world and resolves with its Exit. */
  readonly exit: <A, E>(effect: Effect.Effect<A, E, TestServices>) => Promise<Exit.Exit<A, E>>;
  /** Runs an effect that must fail with an expected error, and resolves with that error. */
  readonly failure: <A, E>(effect: Effect.Effect<A, E, TestServices>) => Promise<E>;
  /** Runs an effect as the given signed-in caller (CurrentUser provided). */
  readonly runAs: <A, E>(caller: Caller, effect: Effect.Effect<A, E, TestServices | CurrentUser>) => Promise<A>;
  readonly exitAs: <A, E>(caller: Caller, effect: Effect.Effect<A, E, TestServices | CurrentUser>) => Promise<Exit.Exit<A, E>>;
  /** Mails sent to an address, oldest first. */
  readonly mailsTo: (address: string) => OutgoingMail[];
  readonly lastMailTo: (address: string) => OutgoingMail | undefined;
  readonly userByEmail: (address: string) => User | undefined;
  /** Two-step sign-in's tables (issue 44). */
  readonly secondFactors: ReturnType<typeof makeMemorySecondFactors>;
}

export const makeTestWorld = (options: TestWorldOptions = {}): TestWorld => {
  const clock = makeControllableClock(options.start ?? DEFAULT_START);
  const users = new Map<string, User>();
  const sessions = new Map<string, Session>();
  const tokens = new Map<string, OneTimeToken>();
  const audit: RecordedAudit[] = [];
  const mails: OutgoingMail[] = [];
  const blobs = new Map<string, StoredTestBlob>();
  const rateLimits = new Map<string, RateBucket>();
  const settings: AccountsSettings = { ...defaultAccountsSettings("http://localhost:8080"), ...options.settings };
  const request = { ip: "203.0.113.7" as string | null, requestId: "req-test", ...options.request };
  const secrets = makeTestSecrets();
  const random = makeTestRandom();
  const transactions = { committed: 0, rolledBack: 0 };

  const usersPort: UsersPort = {
    insert: (user) =>
      Effect.sync(() => {
        if (users.has(user.id)) throw new Error(`duplicate user id ${user.id}`);
        for (const u of users.values()) if (u.email.toLowerCase() === user.email.toLowerCase()) throw new Error(`duplicate e-mail ${user.email}`);
        users.set(user.id, user);
      }),
    findById: (id) => Effect.sync(() => Option.fromNullable(users.get(id))),
    findByEmail: (email) =>
      Effect.sync(() => Option.fromNullable([...users.values()].find((u) => u.email.toLowerCase() === email.toLowerCase()))),
    update: (id, patch) =>
      Effect.sync(() => {
        const user = users.get(id);
        if (user) users.set(id, { ...user, ...patch });
      }),
    listByStatus: (status, p) =>
      Effect.sync(() => {
        const all = [...users.values()].filter((u) => u.status === status).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
        return { data: all.slice((p.page - 1) * p.perPage, p.page * p.perPage), total: all.length };
      }),
    directory: (q, p) => Effect.sync(() => directoryPage(users.values(), q, p)),
    listAwaitingPracticeVerification: (offset, limit) =>
      Effect.sync(() => {
        const waiting = [...users.values()]
          .filter((u) => u.type === "physician" && u.status === "Active" && u.practiceVerifiedAt === null)
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
        return { data: waiting.slice(offset, offset + limit), total: waiting.length };
      }),
  };

  const sessionsPort: SessionsPort = {
    insert: (session) => Effect.sync(() => void sessions.set(session.id, session)),
    findByDigest: (digest) => Effect.sync(() => Option.fromNullable([...sessions.values()].find((s) => s.tokenDigest === digest))),
    findWithUser: (digest) =>
      Effect.sync(() => {
        const session = [...sessions.values()].find((s) => s.tokenDigest === digest);
        const user = session ? users.get(session.userId) : undefined;
        return session && user ? Option.some({ session, user }) : Option.none();
      }),
    touch: (id, at) =>
      Effect.sync(() => {
        const s = sessions.get(id);
        if (s) sessions.set(id, { ...s, lastSeenAt: at });
      }),
    revoke: (id, at) =>
      Effect.sync(() => {
        const s = sessions.get(id);
        if (s && s.revokedAt === null) sessions.set(id, { ...s, revokedAt: at });
      }),
    recordProof: (id, at, options) =>
      Effect.sync(() => {
        const s = sessions.get(id);
        if (s) sessions.set(id, { ...s, lastProofAt: at, secondFactorAt: options?.secondFactor === true ? at : s.secondFactorAt });
      }),
    revokeAllForUser: (userId, at, exceptId) =>
      Effect.sync(() => {
        for (const s of sessions.values()) {
          if (s.userId === userId && s.id !== exceptId && s.revokedAt === null) sessions.set(s.id, { ...s, revokedAt: at });
        }
      }),
  };

  const tokensPort: OneTimeTokensPort = {
    insert: (token) => Effect.sync(() => void tokens.set(token.id, token)),
    consume: (purpose, digest, at) =>
      Effect.sync(() => {
        const found = [...tokens.values()].find(
          (t) => t.purpose === purpose && t.digest === digest && t.consumedAt === null && t.expiresAt.getTime() > at.getTime(),
        );
        if (!found) return Option.none();
        const consumed = { ...found, consumedAt: at };
        tokens.set(found.id, consumed);
        return Option.some(consumed);
      }),
    retireAll: (userId, purpose, at) =>
      Effect.sync(() => {
        for (const t of tokens.values()) {
          if (t.userId === userId && t.purpose === purpose && t.consumedAt === null) tokens.set(t.id, { ...t, consumedAt: at });
        }
      }),
  };

  const auditPort: AuditLogPort = {
    record: (entry) => Effect.sync(() => void audit.push(entry)),
    recordMany: (entries) => Effect.sync(() => void audit.push(...entries)),
  };

  /** A fixed window per key: the first hit opens it; every hit counts, allowed while count <= limit. */
  const rateLimiterPort: RateLimiterPort = {
    hit: (key, limit, windowSeconds, now) =>
      Effect.sync(() => {
        const t = now.getTime();
        let bucket = rateLimits.get(key);
        if (!bucket || t >= bucket.windowStart + windowSeconds * 1000) {
          bucket = { windowStart: t, count: 0 };
          rateLimits.set(key, bucket);
        }
        bucket.count += 1;
        const allowed = bucket.count <= limit;
        return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((bucket.windowStart + windowSeconds * 1000 - t) / 1000)) };
      }),
    reset: (...keys) => Effect.sync(() => keys.forEach((key) => rateLimits.delete(key))),
    peek: (key, windowSeconds, now) =>
      Effect.sync(() => {
        const bucket = rateLimits.get(key);
        return bucket && now.getTime() < bucket.windowStart + windowSeconds * 1000
          ? { count: bucket.count, windowStart: new Date(bucket.windowStart) }
          : { count: 0, windowStart: null };
      }),
  };

  /** Snapshots every "database" table (not blobs or mails, which live outside the database) and restores it when the effect fails, dies or is interrupted. */
  const snapshot = () => ({
    users: new Map(users),
    sessions: new Map(sessions),
    tokens: new Map(tokens),
    auditLength: audit.length,
    rateLimits: new Map([...rateLimits].map(([k, b]) => [k, { ...b }])),
  });
  const restore = (s: ReturnType<typeof snapshot>) => {
    const reset = <K, V>(target: Map<K, V>, source: Map<K, V>) => {
      target.clear();
      for (const [k, v] of source) target.set(k, v);
    };
    reset(users, s.users);
    reset(sessions, s.sessions);
    reset(tokens, s.tokens);
    reset(rateLimits, s.rateLimits);
    audit.length = s.auditLength;
  };
  const transactorPort: TransactorPort = {
    run: (self) =>
      Effect.suspend(() => {
        const before = snapshot();
        return Effect.onExit(self, (exit) =>
          Effect.sync(() => {
            if (Exit.isSuccess(exit)) transactions.committed++;
            else {
              transactions.rolledBack++;
              restore(before);
            }
          }),
        );
      }),
  };

  const mailerPort: MailerPort = { send: (mail) => Effect.sync(() => void mails.push(mail)) };

  const blobPort: BlobStorePort = {
    put: (key, body, contentType) =>
      Effect.gen(function* () {
        const bytes = body instanceof Uint8Array ? body.slice() : yield* Effect.promise(() => readAll(body));
        blobs.set(key, { bytes, contentType });
        return { size: bytes.length };
      }),
    get: (key) =>
      Effect.sync(() =>
        Option.map(Option.fromNullable(blobs.get(key)), (blob) => ({
          contentType: blob.contentType,
          size: blob.bytes.length,
          body: new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(blob.bytes.slice());
              controller.close();
            },
          }),
        })),
      ),
    remove: (key) => Effect.sync(() => void blobs.delete(key)),
  };

  const secondFactors = makeMemorySecondFactors();
  const layer: Layer.Layer<TestServices> = Layer.mergeAll(
    Layer.succeed(SecondFactors, secondFactors.port),
    Layer.succeed(SecretBox, testSecretBox),
    Layer.succeed(AuthenticatorCodes, testAuthenticatorCodes),
    Layer.succeed(WebAuthn, testWebAuthn),
    Layer.succeed(CommonPasswords, testCommonPasswords),
    Layer.succeed(Users, usersPort),
    Layer.succeed(Sessions, sessionsPort),
    Layer.succeed(OneTimeTokens, tokensPort),
    Layer.succeed(AuditLog, auditPort),
    Layer.succeed(RateLimiter, rateLimiterPort),
    Layer.succeed(Transactor, transactorPort),
    Layer.succeed(Mailer, mailerPort),
    Layer.succeed(BlobStore, blobPort),
    Layer.succeed(ContentSniffer, makeTestContentSniffer()),
    Layer.succeed(PasswordHasher, makeTestPasswordHasher()),
    Layer.succeed(Secrets, secrets),
    Layer.succeed(Random, random),
    Layer.sync(AccountsConfig, () => AccountsConfig.make({ ...settings })),
    Layer.sync(RequestContext, () => ({ ...request })),
    Layer.setClock(clock.clock),
  );

  const exit = <A, E>(effect: Effect.Effect<A, E, TestServices>) => Effect.runPromiseExit(Effect.provide(effect, layer));
  const run = async <A, E>(effect: Effect.Effect<A, E, TestServices>): Promise<A> => {
    const result = await exit(effect);
    if (Exit.isSuccess(result)) return result.value;
    const failure = Cause.failureOption(result.cause);
    throw Option.isSome(failure) ? failure.value : Cause.squash(result.cause);
  };
  const failure = async <A, E>(effect: Effect.Effect<A, E, TestServices>): Promise<E> => {
    const result = await exit(effect);
    if (Exit.isSuccess(result)) throw new Error(`expected a failure, got success: ${JSON.stringify(result.value)}`);
    const failed = Cause.failureOption(result.cause);
    if (Option.isNone(failed)) throw Cause.squash(result.cause);
    return failed.value;
  };
  const withCaller = <A, E>(caller: Caller, effect: Effect.Effect<A, E, TestServices | CurrentUser>) =>
    Effect.provideService(effect, CurrentUser, caller);

  return {
    layer,
    clock,
    secondFactors,
    users,
    sessions,
    tokens,
    audit,
    mails,
    blobs,
    rateLimits,
    settings,
    request,
    secrets,
    random,
    transactions,
    run,
    exit,
    failure,
    runAs: (caller, effect) => run(withCaller(caller, effect)),
    exitAs: (caller, effect) => exit(withCaller(caller, effect)),
    mailsTo: (address) => mails.filter((m) => m.to.toLowerCase() === address.toLowerCase()),
    lastMailTo: (address) => mails.filter((m) => m.to.toLowerCase() === address.toLowerCase()).at(-1),
    userByEmail: (address) => [...users.values()].find((u) => u.email.toLowerCase() === address.trim().toLowerCase()),
  };
};
