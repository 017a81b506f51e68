import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PASSWORD_PATTERN } from "@crown/core";
import { makePasswordHasher } from "@crown/crypto";
import { connectDatabase, connectPostgres, listMigrations, migrations } from "@crown/db";
import { databaseKinds, postgresServerUrl } from "@crown/db/testing";
import { crownCommand } from "../crown-command.ts";
import { readOutbox } from "@crown/mail";
import { Effect } from "effect";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_REFUSED } from "../../apps/server/src/seed.ts";

/**
 * The `crown` CLI as an operator runs it (`pnpm crown migrate | seed:demo | user:approve`), each
 * command a real process on an empty database: PGlite under a fresh data directory, and a new
 * PostgreSQL database when a server is reachable.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const adminQuery = async (url: string, statement: string) => {
  const connection = connectPostgres(url, 1);
  try {
    await sql.raw(statement).execute(connection.db);
  } finally {
    await connection.close();
  }
};

describe.each(await databaseKinds())("the crown CLI on %s", (kind) => {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let dropDatabase = async (): Promise<void> => undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "crown-cli-"));
    if (kind === "postgres") {
      const admin = (await postgresServerUrl())!;
      // An empty database (not the migrated test template): `migrate` has everything to do.
      const name = `crown_cli_${randomBytes(6).toString("hex")}`;
      await adminQuery(admin, `create database ${name}`);
      const url = new URL(admin);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      dropDatabase = () => adminQuery(admin, `drop database if exists ${name} with (force)`);
    }
  });
  afterAll(async () => {
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const crown = (...args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env, CROWN_DATA_DIR: dataDir, PUBLIC_URL: "http://crown.test", CROWN_WORKER: "off" };
    delete env.SMTP_URL;
    if (databaseUrl) env.DATABASE_URL = databaseUrl;
    else delete env.DATABASE_URL;
    const run = spawnSync(...crownCommand(args), { cwd: repoRoot, env, encoding: "utf8", timeout: 120_000 });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  };

  /** Opens the same database as the CLI did (after the process ended: PGlite allows one opener). */
  const withDatabase = async <A>(fn: (db: Awaited<ReturnType<typeof connectDatabase>>["db"]) => Promise<A>): Promise<A> => {
    const connection = await connectDatabase({ databaseUrl, dataDir });
    try {
      return await fn(connection.db);
    } finally {
      await connection.close();
    }
  };

  test("migrate: applies every migration to an empty database, and again changes nothing", async () => {
    const first = crown("migrate");
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(`Database (${kind}) is at the latest migration.`);
    const applied = await withDatabase((db) => listMigrations(db));
    expect(applied.map((m) => m.name)).toEqual(Object.keys(migrations));
    expect(applied.every((m) => m.executedAt instanceof Date)).toBe(true);
    const again = crown("migrate");
    expect(again.status, again.stderr).toBe(0);
    expect(await withDatabase((db) => listMigrations(db))).toEqual(applied);
  }, 300_000);

  const emails = ["parent@demo.crown", "physician@demo.crown", "nurse@demo.crown", "reviewer@demo.crown", "admin@demo.crown"];

  test.runIf(kind === "pglite")("seed:demo: passwords made for this data directory, printed and kept in a 0600 file; a second run reuses them", async () => {
    const seeded = crown("seed:demo");
    expect(seeded.status, seeded.stderr).toBe(0);
    const file = path.join(dataDir, "demo-accounts.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, "utf8")) as Array<{ role: string; email: string; password: string }>;
    expect(saved.map((a) => a.email).sort()).toEqual([...emails].sort());
    expect(saved.map((a) => a.role).sort()).toEqual(["admin", "parent", "physician", "physician_staff", "reviewer"]);
    const printed = seeded.stdout.trim().split("\n");
    for (const a of saved) {
      // Never the once-published password; each account its own.
      expect(a.password).not.toBe("Crown-demo-2026!");
      expect(a.password).toMatch(PASSWORD_PATTERN);
      expect(printed.some((line) => line.includes(a.email) && line.includes(a.password)), a.email).toBe(true);
    }
    expect(new Set(saved.map((a) => a.password)).size).toBe(saved.length);
    const users = await withDatabase((db) => db.selectFrom("users").select(["email", "status", "email_verified_at", "password_hash"]).where("email", "like", "%@demo.crown").execute());
    expect(users.map((u) => u.email).sort()).toEqual([...emails].sort());
    expect(users.every((u) => u.status === "Active" && u.email_verified_at !== null)).toBe(true);
    // The saved password is the one stored (as an argon2id hash, never in clear).
    const hasher = makePasswordHasher();
    const passwordOf = (email: string) => saved.find((a) => a.email === email)!.password;
    for (const u of users) {
      expect(u.password_hash).toMatch(/^\$argon2id\$/);
      expect(await Effect.runPromise(hasher.verify(u.password_hash, passwordOf(u.email)))).toBe(true);
    }
    const again = crown("seed:demo");
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(saved);
    const count = await withDatabase((db) => db.selectFrom("users").select((eb) => eb.fn.countAll<string>().as("n")).where("email", "like", "%@demo.crown").executeTakeFirstOrThrow());
    expect(Number(count.n)).toBe(emails.length);
  }, 300_000);

  test.runIf(kind === "pglite")("seed:demo: a demo account found without a saved password (the published one) gets a new one", async () => {
    const file = path.join(dataDir, "demo-accounts.json");
    const hasher = makePasswordHasher();
    const published = await Effect.runPromise(hasher.hash("Crown-demo-2026!"));
    await withDatabase((db) => db.updateTable("users").set({ password_hash: published }).where("email", "=", "admin@demo.crown").execute());
    rmSync(file);
    const seeded = crown("seed:demo");
    expect(seeded.status, seeded.stderr).toBe(0);
    const admin = (JSON.parse(readFileSync(file, "utf8")) as Array<{ email: string; password: string }>).find((a) => a.email === "admin@demo.crown")!;
    const hash = await withDatabase(async (db) => (await db.selectFrom("users").select("password_hash").where("email", "=", "admin@demo.crown").executeTakeFirstOrThrow()).password_hash);
    expect(await Effect.runPromise(hasher.verify(hash, "Crown-demo-2026!"))).toBe(false);
    expect(await Effect.runPromise(hasher.verify(hash, admin.password))).toBe(true);
  }, 300_000);

  test.runIf(kind === "postgres")("seed:demo refuses a real database (DATABASE_URL): no demo account, no file", async () => {
    const refused = crown("seed:demo");
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toBe(DEMO_REFUSED);
    const count = await withDatabase((db) => db.selectFrom("users").select((eb) => eb.fn.countAll<string>().as("n")).where("email", "like", "%@demo.crown").executeTakeFirstOrThrow());
    expect(Number(count.n)).toBe(0);
    expect(existsSync(path.join(dataDir, "demo-accounts.json"))).toBe(false);
  }, 300_000);

  test("user:approve: approves a waiting account (status, notification, e-mail); refuses unknown and not-waiting accounts", async () => {
    const email = `waiting.${kind}@example.org`;
    const created = crown("user:create", "--role", "other", "--email", email, "--password", "Str0ng-pass!", "--first-name", "Wanda");
    expect(created.status, created.stderr).toBe(0);
    await withDatabase((db) => db.updateTable("users").set({ status: "WaitingApproval" }).where("email", "=", email).execute());

    const approved = crown("user:approve", email);
    expect(approved.status, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`Approved ${email}: status Active.`);
    const { status, notes } = await withDatabase(async (db) => {
      const user = await db.selectFrom("users").select(["id", "status"]).where("email", "=", email).executeTakeFirstOrThrow();
      const rows = await sql<{ kind: string }>`select kind from notifications where user_id = ${user.id}`.execute(db);
      return { status: user.status, notes: rows.rows.map((r) => r.kind) };
    });
    expect(status).toBe("Active");
    expect(notes).toEqual(["account_approved"]);
    const mails = (await readOutbox(dataDir)).filter((m) => m.to.includes(email));
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/approved/i)]);

    const twice = crown("user:approve", email);
    expect(twice.status).toBe(1);
    expect(twice.stderr.trim()).toBe("This account is not waiting for approval (status Active).");
    const unknown = crown("user:approve", "nobody@example.org");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr.trim()).toBe("No account with the e-mail nobody@example.org.");
  }, 300_000);
});
