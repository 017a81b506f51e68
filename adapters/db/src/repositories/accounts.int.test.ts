import { AuditLog, OneTimeTokens, RateLimiter, Sessions, Users } from "@crown/core";
import { Effect, Option } from "effect";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aSession, aToken, aUser, at } from "../testing-fixtures.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../testing.ts";

describe.each(await databaseKinds())("accounts repositories on %s", (kind) => {
  let t: TestDatabase;
  const run = <A, E>(effect: Effect.Effect<A, E, Users | Sessions | OneTimeTokens | AuditLog | RateLimiter>) =>
    Effect.runPromise(Effect.provide(effect, t.layer));
  const insertUser = (overrides: Parameters<typeof aUser>[0] = {}) => {
    const user = aUser(overrides);
    return run(Effect.flatMap(Users, (users) => users.insert(user))).then(() => user);
  };

  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.drop());

  describe("Users", () => {
    it("stores a user and finds it by id and by e-mail, whatever the case", async () => {
      const user = await insertUser({ faxNumber: "+1 555 0199", quizPassedAt: at("2026-11-02T00:00:00.123Z") });
      const byId = await run(Effect.flatMap(Users, (users) => users.findById(user.id)));
      expect(byId).toEqual(Option.some(user));
      const byEmail = await run(Effect.flatMap(Users, (users) => users.findByEmail(`  ${user.email.toUpperCase()} `)));
      expect(byEmail).toEqual(Option.some(user));
      expect(Option.getOrThrow(byId).createdAt).toBeInstanceOf(Date);
    });

    it("lower-cases e-mail addresses on insert", async () => {
      const user = await insertUser({ email: "Mixed.Case@Example.COM" });
      const found = await run(Effect.flatMap(Users, (users) => users.findById(user.id)));
      expect(Option.getOrThrow(found).email).toBe("mixed.case@example.com");
    });

    it("answers None for an unknown user", async () => {
      expect(await run(Effect.flatMap(Users, (users) => users.findById("nobody")))).toEqual(Option.none());
      expect(await run(Effect.flatMap(Users, (users) => users.findByEmail("nobody@example.com")))).toEqual(Option.none());
    });

    it("updates only the fields of the patch", async () => {
      const user = await insertUser({ status: "EmailVerificationRequired", emailVerifiedAt: null });
      const verifiedAt = at("2026-11-22T05:00:00.000Z");
      await run(Effect.flatMap(Users, (users) => users.update(user.id, { status: "Active", emailVerifiedAt: verifiedAt, phone: null })));
      const found = Option.getOrThrow(await run(Effect.flatMap(Users, (users) => users.findById(user.id))));
      expect(found).toEqual({ ...user, status: "Active", emailVerifiedAt: verifiedAt, phone: null });
      await run(Effect.flatMap(Users, (users) => users.update(user.id, {})));
    });

    it("refuses a second account with the same e-mail (a defect: the use case checks first)", async () => {
      const user = await insertUser();
      const exit = await Effect.runPromiseExit(
        Effect.provide(Effect.flatMap(Users, (users) => users.insert(aUser({ email: user.email.toUpperCase() }))), t.layer),
      );
      expect(exit._tag).toBe("Failure");
    });

    it("lists users by status, oldest first, a page and the count", async () => {
      const first = await insertUser({ status: "WaitingApproval", createdAt: at("2026-10-01T00:00:00.000Z") });
      const second = await insertUser({ status: "WaitingApproval", createdAt: at("2026-10-02T00:00:00.000Z") });
      const third = await insertUser({ status: "WaitingApproval", createdAt: at("2026-10-03T00:00:00.000Z") });
      const page = (n: number) => run(Effect.flatMap(Users, (users) => users.listByStatus("WaitingApproval", { page: n, perPage: 2 })));
      expect(await page(1)).toMatchObject({ total: 3, data: [{ id: first.id }, { id: second.id }] });
      expect((await page(2)).data.map((u) => u.id)).toEqual([third.id]);
    });

    it("lists the Active physicians whose practice is being verified, longest waiting first, a page and the count", async () => {
      const list = (offset: number, limit: number) => run(Effect.flatMap(Users, (users) => users.listAwaitingPracticeVerification(offset, limit)));
      const before = (await list(0, 1000)).data.map((u) => u.id);
      const older = await insertUser({ type: "physician", status: "Active", practiceVerifiedAt: null, createdAt: at("2020-01-01T00:00:00.000Z") });
      const newer = await insertUser({ type: "physician", status: "Active", practiceVerifiedAt: null, createdAt: at("2020-01-02T00:00:00.000Z") });
      // Not waiting: verified, e-mail unverified, blocked, or not a physician.
      await insertUser({ type: "physician", status: "Active", practiceVerifiedAt: at("2020-01-03T00:00:00.000Z"), createdAt: at("2020-01-01T00:00:00.000Z") });
      await insertUser({ type: "physician", status: "EmailVerificationRequired", practiceVerifiedAt: null, createdAt: at("2020-01-01T00:00:00.000Z") });
      await insertUser({ type: "physician", status: "Blocked", practiceVerifiedAt: null, createdAt: at("2020-01-01T00:00:00.000Z") });
      await insertUser({ type: "parent", status: "Active", practiceVerifiedAt: null, createdAt: at("2020-01-01T00:00:00.000Z") });
      const all = await list(0, 1000);
      expect(all.data.map((u) => u.id)).toEqual([older.id, newer.id, ...before]);
      expect(all.total).toBe(before.length + 2);
      const second = await list(1, 1);
      expect(second.data.map((u) => u.id)).toEqual([newer.id]);
      expect(second.total).toBe(before.length + 2);
    });

    it.runIf(kind === "postgres")("reads the practices waiting from their partial index, not every account (20,000 users seeded)", async () => {
      // Seeded in a transaction that is rolled back: deleting 20,000 users afterwards runs every
      // foreign key's check per row and took over a minute on a loaded CI machine.
      await t.db.connection().execute(async (db) => {
        await sql`begin`.execute(db);
        try {
          await sql`insert into users (id, email, password_hash, type, status, first_name, last_name, password_changed_at, created_at, updated_at, practice_verified_at)
            select 'seed-' || g, 'seed-' || g || '@example.com', 'x', case when g % 4 = 0 then 'physician' else 'parent' end,
              case when g % 50 = 0 then 'EmailVerificationRequired' else 'Active' end, 'Seed', 'User', now(), now() - g * interval '1 minute', now(),
              case when g % 400 = 0 then null when g % 4 = 0 then now() else null end
            from generate_series(1, 20000) g`.execute(db);
          await sql`analyze users`.execute(db);
          const plan = async (query: ReturnType<typeof sql>) => (await sql<{ "QUERY PLAN": string }>`explain ${query}`.execute(db)).rows.map((r) => r["QUERY PLAN"]).join("\n");
          // Bound parameters, as the repository sends them (each unnamed statement is planned with its values).
          const waiting = sql`from users where type = ${"physician"} and status = ${"Active"} and practice_verified_at is null`;
          const page = await plan(sql`select * ${waiting} order by created_at, id offset ${20} limit ${10}`);
          const count = await plan(sql`select count(*) ${waiting}`);
          for (const p of [page, count]) {
            expect(p).toContain("users_practices_awaiting_verification");
            expect(p).not.toMatch(/Seq Scan on users/);
          }
        } finally {
          await sql`rollback`.execute(db);
        }
      });
      const { rows } = await sql<{ n: string }>`select count(*) as n from users where id like 'seed-%'`.execute(t.db);
      expect(Number(rows[0]?.n)).toBe(0);
    });
  });

  describe("Sessions", () => {
    it("stores a session and finds it by its token digest", async () => {
      const user = await insertUser();
      const session = aSession(user.id, { idleTimeoutSeconds: null, deviceType: "kiosk" });
      await run(Effect.flatMap(Sessions, (sessions) => sessions.insert(session)));
      expect(await run(Effect.flatMap(Sessions, (sessions) => sessions.findByDigest(session.tokenDigest)))).toEqual(Option.some(session));
      expect(await run(Effect.flatMap(Sessions, (sessions) => sessions.findByDigest("unknown")))).toEqual(Option.none());
      expect(await run(Effect.flatMap(Sessions, (sessions) => sessions.findWithUser(session.tokenDigest)))).toEqual(Option.some({ session, user: await run(Effect.flatMap(Users, (users) => Effect.map(users.findById(session.userId), Option.getOrThrow))) }));
      expect(await run(Effect.flatMap(Sessions, (sessions) => sessions.findWithUser("unknown")))).toEqual(Option.none());
    });

    it("touches forward only", async () => {
      const user = await insertUser();
      const session = aSession(user.id);
      const later = at("2026-11-22T08:10:00.000Z");
      await run(
        Effect.gen(function* () {
          const sessions = yield* Sessions;
          yield* sessions.insert(session);
          yield* sessions.touch(session.id, later);
          yield* sessions.touch(session.id, at("2026-11-22T08:05:00.000Z"));
        }),
      );
      const found = Option.getOrThrow(await run(Effect.flatMap(Sessions, (sessions) => sessions.findByDigest(session.tokenDigest))));
      expect(found.lastSeenAt).toEqual(later);
    });

    it.skipIf(kind === "pglite")("a touch never waits behind another touch of the same session (it skips the locked row, ADR 0096)", async () => {
      const user = await insertUser();
      const session = aSession(user.id);
      await run(Effect.flatMap(Sessions, (sessions) => sessions.insert(session)));
      const later = at("2026-11-22T08:10:00.000Z");
      // Another request's touch holds the row until this one has returned: a touch that waited would never return.
      await t.db.transaction().execute(async (trx) => {
        await trx.updateTable("sessions").set({ last_seen_at: later }).where("id", "=", session.id).execute();
        await run(Effect.flatMap(Sessions, (sessions) => sessions.touch(session.id, at("2026-11-22T08:11:00.000Z"))));
      });
      const found = Option.getOrThrow(await run(Effect.flatMap(Sessions, (sessions) => sessions.findByDigest(session.tokenDigest))));
      expect(found.lastSeenAt).toEqual(later);
      // With nobody holding it, the touch moves it forward.
      await run(Effect.flatMap(Sessions, (sessions) => sessions.touch(session.id, at("2026-11-22T08:12:00.000Z"))));
      expect(Option.getOrThrow(await run(Effect.flatMap(Sessions, (sessions) => sessions.findByDigest(session.tokenDigest)))).lastSeenAt).toEqual(at("2026-11-22T08:12:00.000Z"));
    });

    it("revokes one session, keeping the first revocation time", async () => {
      const user = await insertUser();
      const session = aSession(user.id);
      const first = at("2026-11-22T09:00:00.000Z");
      await run(
        Effect.gen(function* () {
          const sessions = yield* Sessions;
          yield* sessions.insert(session);
          yield* sessions.revoke(session.id, first);
          yield* sessions.revoke(session.id, at("2026-11-22T10:00:00.000Z"));
        }),
      );
      const found = Option.getOrThrow(await run(Effect.flatMap(Sessions, (sessions) => sessions.findByDigest(session.tokenDigest))));
      expect(found.revokedAt).toEqual(first);
    });

    it("revokes every other session of a user, and no one else's", async () => {
      const user = await insertUser();
      const other = await insertUser();
      const [keep, drop1, drop2] = [aSession(user.id), aSession(user.id), aSession(user.id)];
      const stranger = aSession(other.id);
      const when = at("2026-11-22T09:30:00.000Z");
      const revokedAt = await run(
        Effect.gen(function* () {
          const sessions = yield* Sessions;
          for (const s of [keep, drop1, drop2, stranger]) yield* sessions.insert(s!);
          yield* sessions.revokeAllForUser(user.id, when, keep!.id);
          return yield* Effect.forEach([keep, drop1, drop2, stranger], (s) =>
            Effect.map(sessions.findByDigest(s!.tokenDigest), (found) => Option.getOrThrow(found).revokedAt),
          );
        }),
      );
      expect(revokedAt).toEqual([null, when, when, null]);
      await run(Effect.flatMap(Sessions, (sessions) => sessions.revokeAllForUser(user.id, when)));
      const kept = await run(Effect.flatMap(Sessions, (sessions) => sessions.findByDigest(keep!.tokenDigest)));
      expect(Option.getOrThrow(kept).revokedAt).toEqual(when);
    });
  });

  describe("OneTimeTokens", () => {
    const before = at("2026-11-22T08:30:00.000Z");

    it("consumes a token once, and returns it marked as used", async () => {
      const user = await insertUser();
      const token = aToken(user.id);
      await run(Effect.flatMap(OneTimeTokens, (tokens) => tokens.insert(token)));
      const first = await run(Effect.flatMap(OneTimeTokens, (tokens) => tokens.consume("password_reset", token.digest, before)));
      expect(first).toEqual(Option.some({ ...token, consumedAt: before }));
      const second = await run(Effect.flatMap(OneTimeTokens, (tokens) => tokens.consume("password_reset", token.digest, before)));
      expect(second).toEqual(Option.none());
    });

    it("never accepts a token of another purpose, an unknown one or an expired one", async () => {
      const user = await insertUser();
      const token = aToken(user.id, { purpose: "email_verification" });
      await run(Effect.flatMap(OneTimeTokens, (tokens) => tokens.insert(token)));
      const consume = (purpose: "password_reset" | "email_verification", digest: string, when: Date) =>
        run(Effect.flatMap(OneTimeTokens, (tokens) => tokens.consume(purpose, digest, when)));
      expect(await consume("password_reset", token.digest, before)).toEqual(Option.none());
      expect(await consume("email_verification", "unknown", before)).toEqual(Option.none());
      expect(await consume("email_verification", token.digest, token.expiresAt)).toEqual(Option.none());
      expect(await consume("email_verification", token.digest, at("2026-11-23T00:00:00.000Z"))).toEqual(Option.none());
      // Still unused: the failed attempts did not burn it.
      expect(Option.isSome(await consume("email_verification", token.digest, before))).toBe(true);
    });

    it("lets exactly one of many concurrent consumes win", async () => {
      const user = await insertUser();
      const token = aToken(user.id);
      await run(Effect.flatMap(OneTimeTokens, (tokens) => tokens.insert(token)));
      const results = await run(
        Effect.flatMap(OneTimeTokens, (tokens) =>
          Effect.all(Array.from({ length: 10 }, () => tokens.consume("password_reset", token.digest, before)), { concurrency: "unbounded" }),
        ),
      );
      expect(results.filter(Option.isSome)).toHaveLength(1);
    });

    it("retires every unused token of a purpose for a user", async () => {
      const user = await insertUser();
      const [old1, old2] = [aToken(user.id), aToken(user.id)];
      const verification = aToken(user.id, { purpose: "email_verification" });
      const retiredAt = at("2026-11-22T08:15:00.000Z");
      await run(
        Effect.gen(function* () {
          const tokens = yield* OneTimeTokens;
          for (const token of [old1!, old2!, verification]) yield* tokens.insert(token);
          yield* tokens.retireAll(user.id, "password_reset", retiredAt);
        }),
      );
      const consume = (purpose: "password_reset" | "email_verification", digest: string) =>
        run(Effect.flatMap(OneTimeTokens, (tokens) => tokens.consume(purpose, digest, before)));
      expect(await consume("password_reset", old1!.digest)).toEqual(Option.none());
      expect(await consume("password_reset", old2!.digest)).toEqual(Option.none());
      expect(Option.isSome(await consume("email_verification", verification.digest))).toBe(true);
    });
  });

  describe("AuditLog", () => {
    it("records entries with their details", async () => {
      const when = at("2026-11-22T07:00:00.000Z");
      await run(
        Effect.flatMap(AuditLog, (log) =>
          log.record({ action: "test.recorded", actorId: "actor-1", subjectId: "subject-1", details: { n: 1, nested: { ok: true } }, ip: "203.0.113.9", at: when }),
        ),
      );
      await run(Effect.flatMap(AuditLog, (log) => log.record({ action: "test.recorded", actorId: null, ip: null, at: when })));
      const rows = await t.db.selectFrom("audit_events").selectAll().where("action", "=", "test.recorded").orderBy("id").execute();
      expect(rows).toMatchObject([
        { action: "test.recorded", actor_id: "actor-1", subject_id: "subject-1", ip: "203.0.113.9", at: when, details: { n: 1, nested: { ok: true } } },
        { action: "test.recorded", actor_id: null, subject_id: null, ip: null, at: when, details: {} },
      ]);
      expect(typeof rows[0]!.id).toBe("number");
    });

    it("refuses UPDATE, DELETE and TRUNCATE", async () => {
      await run(Effect.flatMap(AuditLog, (log) => log.record({ action: "test.immutable", actorId: null, ip: null, at: new Date() })));
      await expect(sql`update audit_events set action = 'changed'`.execute(t.db)).rejects.toThrow(/append-only/);
      await expect(sql`delete from audit_events`.execute(t.db)).rejects.toThrow(/append-only/);
      await expect(sql`truncate audit_events`.execute(t.db)).rejects.toThrow(/append-only/);
      const count = await t.db.selectFrom("audit_events").select((eb) => eb.fn.countAll<number>().as("n")).where("action", "=", "test.immutable").executeTakeFirstOrThrow();
      expect(count.n).toBe(1);
    });
  });

  describe("RateLimiter", () => {
    const start = at("2026-11-22T06:00:00.000Z");
    const plus = (seconds: number) => new Date(start.getTime() + seconds * 1000);
    const hit = (key: string, when: Date, limit = 3, windowSeconds = 60) =>
      run(Effect.flatMap(RateLimiter, (limiter) => limiter.hit(key, limit, windowSeconds, when)));

    it("counts hits, blocks at the limit and says how long to wait", async () => {
      expect(await hit("k1", start)).toEqual({ allowed: true, retryAfterSeconds: 0 });
      expect((await hit("k1", plus(10))).allowed).toBe(true);
      expect((await hit("k1", plus(20))).allowed).toBe(true);
      expect(await hit("k1", plus(30))).toEqual({ allowed: false, retryAfterSeconds: 30 });
      expect(await hit("k1", plus(59.5))).toEqual({ allowed: false, retryAfterSeconds: 1 });
    });

    it("starts a new window once the old one has passed", async () => {
      for (let i = 0; i < 5; i++) await hit("k2", plus(i));
      expect((await hit("k2", plus(59))).allowed).toBe(false);
      expect(await hit("k2", plus(60))).toEqual({ allowed: true, retryAfterSeconds: 0 });
      expect((await hit("k2", plus(61))).allowed).toBe(true);
      expect((await hit("k2", plus(62))).allowed).toBe(true);
      expect(await hit("k2", plus(63))).toEqual({ allowed: false, retryAfterSeconds: 57 });
    });

    it("keeps keys apart, and forgets a key on reset", async () => {
      for (let i = 0; i < 3; i++) await hit("k3", start);
      expect((await hit("k3", start)).allowed).toBe(false);
      expect((await hit("k4", start)).allowed).toBe(true);
      await run(Effect.flatMap(RateLimiter, (limiter) => limiter.reset("k3")));
      expect((await hit("k3", start)).allowed).toBe(true);
    });

    it("forgets several keys in one reset, and nothing else", async () => {
      for (const key of ["r1", "r2", "r3"]) for (let i = 0; i < 3; i++) await hit(key, start);
      await run(Effect.flatMap(RateLimiter, (limiter) => limiter.reset("r1", "r2")));
      expect((await hit("r1", start)).allowed).toBe(true);
      expect((await hit("r2", start)).allowed).toBe(true);
      expect((await hit("r3", start)).allowed).toBe(false);
      await run(Effect.flatMap(RateLimiter, (limiter) => limiter.reset()));
    });

    it("counts concurrent hits exactly", async () => {
      const verdicts = await run(
        Effect.flatMap(RateLimiter, (limiter) =>
          Effect.all(Array.from({ length: 20 }, () => limiter.hit("k5", 5, 60, start)), { concurrency: "unbounded" }),
        ),
      );
      expect(verdicts.filter((v) => v.allowed)).toHaveLength(5);
    });
  });
});
