import {
  ACTIVE_STATUS,
  type AuditLogPort,
  type OneTimeToken,
  type OneTimeTokensPort,
  type RateLimiterPort,
  type Session,
  type SessionsPort,
  type StampedAuditEntry,
  type TransactorPort,
  type User,
  type UserPatch,
  type UsersPort,
} from "@crown/core";
import { Effect, Option } from "effect";
import { type Kysely, sql } from "kysely";
import { contains, inTransaction, run } from "../executor.ts";
import { countOf } from "../paging.ts";
import type { Database, OneTimeTokenRow, SessionRow, UserRow, UserRowUpdate } from "../schema.ts";

/*
 * The accounts repositories: plain functions over the current executor (the database, or the
 * transaction opened by `Transactor.run`). Rows become the core's camelCase objects here.
 */

// ---- Users -----------------------------------------------------------------------------------------

export const userFromRow = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  passwordHash: row.password_hash,
  type: row.type,
  status: row.status,
  firstName: row.first_name,
  lastName: row.last_name,
  phone: row.phone,
  faxNumber: row.fax_number,
  emailVerifiedAt: row.email_verified_at,
  passwordChangedAt: row.password_changed_at,
  photoKey: row.photo_key,
  photoType: row.photo_type,
  disclaimerAcceptedAt: row.disclaimer_accepted_at,
  baaSignedAt: row.baa_signed_at,
  quizPassedAt: row.quiz_passed_at,
  npi: row.npi,
  practiceVerifiedAt: row.practice_verified_at,
  language: row.language,
  secondFactorAt: row.second_factor_at,
  createdAt: row.created_at,
});

const userColumns = {
  email: "email",
  passwordHash: "password_hash",
  type: "type",
  status: "status",
  firstName: "first_name",
  lastName: "last_name",
  phone: "phone",
  faxNumber: "fax_number",
  emailVerifiedAt: "email_verified_at",
  passwordChangedAt: "password_changed_at",
  photoKey: "photo_key",
  photoType: "photo_type",
  disclaimerAcceptedAt: "disclaimer_accepted_at",
  baaSignedAt: "baa_signed_at",
  quizPassedAt: "quiz_passed_at",
  npi: "npi",
  practiceVerifiedAt: "practice_verified_at",
  language: "language",
  secondFactorAt: "second_factor_at",
} as const satisfies Record<keyof UserPatch, keyof UserRowUpdate>;

/** The columns a patch changes; keys absent from the patch (or undefined) are left alone. */
export const userPatchToRow = (patch: UserPatch): UserRowUpdate => {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(userColumns)) {
    const value = patch[key as keyof UserPatch];
    if (value !== undefined) row[column] = key === "email" ? String(value).toLowerCase() : value;
  }
  return row as UserRowUpdate;
};

export const makeUsers = (db: Kysely<Database>): UsersPort => ({
  insert: (user) =>
    run(db, (ex) =>
      ex
        .insertInto("users")
        .values({
          id: user.id,
          email: user.email.toLowerCase(),
          password_hash: user.passwordHash,
          type: user.type,
          status: user.status,
          first_name: user.firstName,
          last_name: user.lastName,
          phone: user.phone,
          fax_number: user.faxNumber,
          email_verified_at: user.emailVerifiedAt,
          password_changed_at: user.passwordChangedAt,
          photo_key: user.photoKey,
          photo_type: user.photoType,
          disclaimer_accepted_at: user.disclaimerAcceptedAt,
          baa_signed_at: user.baaSignedAt,
          quiz_passed_at: user.quizPassedAt,
          npi: user.npi,
          practice_verified_at: user.practiceVerifiedAt,
          language: user.language,
          second_factor_at: user.secondFactorAt,
          created_at: user.createdAt,
          updated_at: user.createdAt,
        })
        .execute(),
    ),
  findById: (id) =>
    run(db, (ex) => ex.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), userFromRow)),
    ),
  findByEmail: (email) =>
    run(db, (ex) => ex.selectFrom("users").selectAll().where("email", "=", email.trim().toLowerCase()).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), userFromRow)),
    ),
  update: (id, patch) => {
    const row = userPatchToRow(patch);
    if (Object.keys(row).length === 0) return Effect.void;
    return Effect.asVoid(
      run(db, (ex) =>
        ex
          .updateTable("users")
          .set({ ...row, updated_at: sql<Date>`now()` })
          .where("id", "=", id)
          .execute(),
      ),
    );
  },
  // One page, oldest first, walking users_status_created_idx backwards; the count is capped (paging.ts).
  listByStatus: (status, page) =>
    run(db, async (ex) => {
      const matching = ex.selectFrom("users").where("status", "=", status);
      const [rows, total] = await Promise.all([
        matching.selectAll().orderBy("created_at").orderBy("id").limit(page.perPage).offset((page.page - 1) * page.perPage).execute(),
        countOf(ex, `users-by-status:${status}`, matching),
      ]);
      return { data: rows.map(userFromRow), total };
    }),
  directory: (q, page) =>
    run(db, async (ex) => {
      // The same text as directoryText and the trigram index (migration 2026-11-24T1540).
      let matching = ex.selectFrom("users");
      if (q.type) matching = matching.where("type", "=", q.type);
      if (q.status) matching = matching.where("status", "=", q.status);
      if (q.search) matching = matching.where(sql<string>`(first_name || ' ' || last_name || ' ' || email)`, "ilike", contains(q.search));
      const [rows, total] = await Promise.all([
        matching.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(page.perPage).offset((page.page - 1) * page.perPage).execute(),
        countOf(ex, `users:${q.type ?? ""}:${q.status ?? ""}:${q.search ?? ""}`, matching),
      ]);
      return { data: rows.map(userFromRow), total };
    }),
  // Both queries carry the predicate of the partial index users_practices_awaiting_verification
  // (migration 2026-11-24T1510), so they read only the practices waiting, never the whole table.
  listAwaitingPracticeVerification: (offset, limit) =>
    run(db, async (ex) => {
      const waiting = ex
        .selectFrom("users")
        .where("type", "=", "physician")
        .where("status", "=", ACTIVE_STATUS)
        .where("practice_verified_at", "is", null);
      const rows = await waiting.selectAll().orderBy("created_at").orderBy("id").offset(offset).limit(limit).execute();
      const count = await waiting.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow();
      return { data: rows.map(userFromRow), total: Number(count.n) };
    }),
});

// ---- Sessions --------------------------------------------------------------------------------------

export const sessionFromRow = (row: SessionRow): Session => ({
  id: row.id,
  userId: row.user_id,
  tokenDigest: row.token_digest,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
  idleTimeoutSeconds: row.idle_timeout_seconds,
  revokedAt: row.revoked_at,
  deviceType: row.device_type,
  lastProofAt: row.last_proof_at,
  secondFactorAt: row.second_factor_at,
});

export const makeSessions = (db: Kysely<Database>): SessionsPort => ({
  insert: (session) =>
    Effect.asVoid(
      run(db, (ex) =>
        ex
          .insertInto("sessions")
          .values({
            id: session.id,
            user_id: session.userId,
            token_digest: session.tokenDigest,
            created_at: session.createdAt,
            last_seen_at: session.lastSeenAt,
            expires_at: session.expiresAt,
            idle_timeout_seconds: session.idleTimeoutSeconds,
            revoked_at: session.revokedAt,
            device_type: session.deviceType,
            last_proof_at: session.lastProofAt,
            second_factor_at: session.secondFactorAt,
          })
          .execute(),
      ),
    ),
  findByDigest: (digest) =>
    run(db, (ex) => ex.selectFrom("sessions").selectAll().where("token_digest", "=", digest).executeTakeFirst()).pipe(
      Effect.map((row) => Option.map(Option.fromNullable(row), sessionFromRow)),
    ),
  // One statement for both: the account's columns as they are, the session's under an s_ prefix.
  findWithUser: (digest) =>
    run(db, (ex) =>
      ex
        .selectFrom("sessions as s")
        .innerJoin("users as u", "u.id", "s.user_id")
        .selectAll("u")
        .select([
          "s.id as s_id",
          "s.user_id as s_user_id",
          "s.token_digest as s_token_digest",
          "s.created_at as s_created_at",
          "s.last_seen_at as s_last_seen_at",
          "s.expires_at as s_expires_at",
          "s.idle_timeout_seconds as s_idle_timeout_seconds",
          "s.revoked_at as s_revoked_at",
          "s.device_type as s_device_type",
          "s.last_proof_at as s_last_proof_at",
          "s.second_factor_at as s_second_factor_at",
        ])
        .where("s.token_digest", "=", digest)
        .executeTakeFirst(),
    ).pipe(
      Effect.map((row) =>
        Option.map(Option.fromNullable(row), ({ s_id, s_user_id, s_token_digest, s_created_at, s_last_seen_at, s_expires_at, s_idle_timeout_seconds, s_revoked_at, s_device_type, s_last_proof_at, s_second_factor_at, ...user }) => ({
          session: sessionFromRow({
            id: s_id,
            user_id: s_user_id,
            token_digest: s_token_digest,
            created_at: s_created_at,
            last_seen_at: s_last_seen_at,
            expires_at: s_expires_at,
            idle_timeout_seconds: s_idle_timeout_seconds,
            revoked_at: s_revoked_at,
            device_type: s_device_type,
            last_proof_at: s_last_proof_at,
            second_factor_at: s_second_factor_at,
          }),
          user: userFromRow(user),
        })),
      ),
    ),
  // Never moves last_seen_at backwards, and never waits: when the minute is up, every request of the session
  // in progress touches it at once, and a plain UPDATE would queue each behind the last one's commit (the
  // results bench's 0.5 s stalls, ADR 0096). A row another touch holds is skipped: it is being touched now.
  touch: (id, at) =>
    Effect.asVoid(
      run(db, (ex) =>
        ex
          .updateTable("sessions")
          .set({ last_seen_at: at })
          .where("id", "in", ex.selectFrom("sessions").select("id").where("id", "=", id).where("last_seen_at", "<", at).forUpdate().skipLocked())
          .execute(),
      ),
    ),
  // The first revocation time is kept.
  revoke: (id, at) =>
    Effect.asVoid(
      run(db, (ex) => ex.updateTable("sessions").set({ revoked_at: at }).where("id", "=", id).where("revoked_at", "is", null).execute()),
    ),
  // A proof never moves backwards; the second factor's time is kept unless this proof is one.
  recordProof: (id, at, options) =>
    Effect.asVoid(
      run(db, (ex) =>
        ex
          .updateTable("sessions")
          .set((eb) => ({
            last_proof_at: sql<Date>`greatest(${eb.ref("last_proof_at")}, ${at})`,
            ...(options?.secondFactor === true ? { second_factor_at: at } : {}),
          }))
          .where("id", "=", id)
          .execute(),
      ),
    ),
  revokeAllForUser: (userId, at, exceptId) =>
    Effect.asVoid(
      run(db, (ex) => {
        let update = ex.updateTable("sessions").set({ revoked_at: at }).where("user_id", "=", userId).where("revoked_at", "is", null);
        if (exceptId !== undefined) update = update.where("id", "<>", exceptId);
        return update.execute();
      }),
    ),
});

// ---- One-time tokens -------------------------------------------------------------------------------

export const oneTimeTokenFromRow = (row: OneTimeTokenRow): OneTimeToken => ({
  id: row.id,
  userId: row.user_id,
  purpose: row.purpose,
  digest: row.digest,
  expiresAt: row.expires_at,
  consumedAt: row.consumed_at,
  createdAt: row.created_at,
});

export const makeOneTimeTokens = (db: Kysely<Database>): OneTimeTokensPort => ({
  insert: (token) =>
    Effect.asVoid(
      run(db, (ex) =>
        ex
          .insertInto("one_time_tokens")
          .values({
            id: token.id,
            user_id: token.userId,
            purpose: token.purpose,
            digest: token.digest,
            expires_at: token.expiresAt,
            consumed_at: token.consumedAt,
            created_at: token.createdAt,
          })
          .execute(),
      ),
    ),
  // One statement: under concurrent calls PostgreSQL re-checks `consumed_at is null` on the locked
  // row, so exactly one caller gets the token back.
  consume: (purpose, digest, at) =>
    run(db, (ex) =>
      ex
        .updateTable("one_time_tokens")
        .set({ consumed_at: at })
        .where("purpose", "=", purpose)
        .where("digest", "=", digest)
        .where("consumed_at", "is", null)
        .where("expires_at", ">", at)
        .returningAll()
        .executeTakeFirst(),
    ).pipe(Effect.map((row) => Option.map(Option.fromNullable(row), oneTimeTokenFromRow))),
  retireAll: (userId, purpose, at) =>
    Effect.asVoid(
      run(db, (ex) =>
        ex
          .updateTable("one_time_tokens")
          .set({ consumed_at: at })
          .where("user_id", "=", userId)
          .where("purpose", "=", purpose)
          .where("consumed_at", "is", null)
          .execute(),
      ),
    ),
});

// ---- Audit log -------------------------------------------------------------------------------------

/** Only inserts: the table refuses updates and deletes anyway. */
const auditRow = (entry: StampedAuditEntry) => ({
  at: entry.at,
  action: entry.action,
  actor_id: entry.actorId,
  subject_id: entry.subjectId ?? null,
  on_behalf_of: entry.onBehalfOf ?? null,
  ip: entry.ip,
  request_id: entry.requestId ?? null,
  details: JSON.stringify(entry.details ?? {}),
});

export const makeAuditLog = (db: Kysely<Database>): AuditLogPort => ({
  record: (entry) => Effect.asVoid(run(db, (ex) => ex.insertInto("audit_events").values(auditRow(entry)).execute())),
  recordMany: (entries) =>
    entries.length === 0 ? Effect.void : Effect.asVoid(run(db, (ex) => ex.insertInto("audit_events").values(entries.map(auditRow)).execute())),
});

// ---- Rate limiter ----------------------------------------------------------------------------------

/**
 * A fixed window per key, in one atomic upsert: the first hit (or the first after the window has
 * passed) starts a window with count 1; later hits in the window add one. Inside a transaction the
 * hit is part of it (and on PGlite it must be: the transaction holds the only connection).
 */
export const makeRateLimiter = (db: Kysely<Database>): RateLimiterPort => ({
  hit: (key, limit, windowSeconds, now) => {
    const windowOver = new Date(now.getTime() - windowSeconds * 1000);
    return run(db, (ex) =>
      ex
        .insertInto("rate_limit_buckets")
        .values({ key, window_start: now, count: 1 })
        .onConflict((oc) =>
          oc.column("key").doUpdateSet({
            window_start: sql<Date>`case when rate_limit_buckets.window_start <= ${windowOver} then ${now} else rate_limit_buckets.window_start end`,
            count: sql<number>`case when rate_limit_buckets.window_start <= ${windowOver} then 1 else rate_limit_buckets.count + 1 end`,
          }),
        )
        .returning(["window_start", "count"])
        .executeTakeFirstOrThrow(),
    ).pipe(
      Effect.map((bucket) => {
        const allowed = bucket.count <= limit;
        const endsInMs = bucket.window_start.getTime() + windowSeconds * 1000 - now.getTime();
        return { allowed, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(endsInMs / 1000)) };
      }),
    );
  },
  reset: (...keys) => (keys.length === 0 ? Effect.void : Effect.asVoid(run(db, (ex) => ex.deleteFrom("rate_limit_buckets").where("key", "in", keys).execute()))),
  peek: (key, windowSeconds, now) =>
    run(db, (ex) => ex.selectFrom("rate_limit_buckets").select(["window_start", "count"]).where("key", "=", key).executeTakeFirst()).pipe(
      Effect.map((bucket) =>
        bucket && bucket.window_start.getTime() + windowSeconds * 1000 > now.getTime() ? { count: bucket.count, windowStart: bucket.window_start } : { count: 0, windowStart: null },
      ),
    ),
});

// ---- Transactor ------------------------------------------------------------------------------------

export const makeTransactor = (db: Kysely<Database>): TransactorPort => ({ run: inTransaction(db) });
