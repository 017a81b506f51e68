import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import type { Kysely } from "kysely";
import pg from "pg";
import { connectPglite, connectPostgres, type DatabaseKind } from "./connect.ts";
import { makeDatabaseLayer } from "./index.ts";
import { migrateToLatest, migrations } from "./migrations/index.ts";
import { readPgliteTemplate, writePgliteTemplate } from "./pglite-template.ts";
import type { Database } from "./schema.ts";

/**
 * Databases for integration tests: a fresh, migrated database per call, on PGlite (in memory) or
 * on a real PostgreSQL server. The server is, in order: `TEST_DATABASE_URL` or `DATABASE_URL` when
 * set (an explicit choice wins), else a PostgreSQL container when Docker is reachable, else
 * `postgres://postgres@127.0.0.1:5432/postgres`. Each test database is `crown_test_<random>` and is
 * dropped by `drop()`; the server's own databases are never touched.
 */

export interface TestDatabase {
  readonly kind: DatabaseKind;
  readonly db: Kysely<Database>;
  readonly layer: ReturnType<typeof makeDatabaseLayer>;
  /** Closes the connection and, on PostgreSQL, drops the database. */
  readonly drop: () => Promise<void>;
  /** PostgreSQL: the test database's URL (for a LISTEN connection of its own). */
  readonly url?: string;
  /** PGlite: the embedded database (for its own LISTEN). */
  readonly pglite?: import("@electric-sql/pglite").PGlite;
}

const LOCAL_URL = "postgres://postgres@127.0.0.1:5432/postgres";

const explicitUrl = () => process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;

/** Answers quickly whether a Docker daemon is there; never waits for a missing socket. */
const dockerReachable = (): Promise<boolean> => {
  const host = process.env.DOCKER_HOST;
  const socketPath = host?.startsWith("unix://") ? host.slice("unix://".length) : host ? undefined : "/var/run/docker.sock";
  if (socketPath === undefined || !existsSync(socketPath)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const req = request({ socketPath, path: "/_ping", timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
    req.end();
  });
};

const canConnect = async (url: string): Promise<boolean> => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
};

let serverUrl: Promise<string | null> | undefined;

/** The admin URL of the PostgreSQL server tests use, or null when none is reachable. Memoised per process. */
export const postgresServerUrl = (): Promise<string | null> => {
  serverUrl ??= (async () => {
    const explicit = explicitUrl();
    if (explicit) return (await canConnect(explicit)) ? explicit : null;
    if (await dockerReachable()) {
      try {
        const { GenericContainer, Wait } = await import("testcontainers");
        const container = await new GenericContainer("postgres:15-alpine")
          .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: "trust" })
          .withExposedPorts(5432)
          .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
          .start();
        // The reaper removes the container when the test process ends.
        return `postgres://postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`;
      } catch (error) {
        console.warn("[db testing] Docker is there but the PostgreSQL container did not start:", (error as Error).message);
      }
    }
    return (await canConnect(LOCAL_URL)) ? LOCAL_URL : null;
  })();
  return serverUrl;
};

/** CI sets `CI` (GitHub, GitLab and .ci/run use `true`); "false" or "0" mean a local run. */
const runningInCi = (env: NodeJS.ProcessEnv) => env.CI !== undefined && env.CI !== "" && env.CI !== "false" && env.CI !== "0";

/**
 * The kinds of database the integration tests can run on here: PGlite always, PostgreSQL when a
 * server is reachable (set `CROWN_TEST_DB=pglite` or `postgres` to run on one only). Use it as
 * `describe.each(await databaseKinds())(...)`. On a developer machine a missing server only warns;
 * in CI it fails the run: a green CI must mean the suite ran on PostgreSQL too, not on PGlite alone.
 */
export const databaseKinds = async (env: NodeJS.ProcessEnv = process.env, serverUrl: () => Promise<string | null> = postgresServerUrl): Promise<DatabaseKind[]> => {
  const only = env.CROWN_TEST_DB;
  const kinds: DatabaseKind[] = [];
  if (only !== "postgres") kinds.push("pglite");
  if (only !== "pglite") {
    if ((await serverUrl()) !== null) kinds.push("postgres");
    else if (only === "postgres") throw new Error("CROWN_TEST_DB=postgres but no PostgreSQL server is reachable");
    else if (runningInCi(env)) {
      throw new Error(
        `CI=${env.CI} but no PostgreSQL server is reachable (TEST_DATABASE_URL, DATABASE_URL, Docker or 127.0.0.1:5432): the tests must run on PostgreSQL in CI. Set CROWN_TEST_DB=pglite to run on PGlite only on purpose.`,
      );
    } else console.warn("[db testing] no PostgreSQL server reachable: integration tests run on PGlite only");
  }
  return kinds;
};

const withDatabase = (url: string, database: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
};

const adminQuery = async (url: string, statement: string) => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
};

/**
 * Drops a test database once its sessions have gone. A pool's end() resolves when it has told its clients to
 * end, not when their backends have exited; `drop ... with (force)` at once terminated a backend still
 * closing, and its client threw "terminating connection due to administrator command" into the test run.
 * After five seconds the force ends what is left.
 */
const dropWhenIdle = async (url: string, name: string) => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    for (let waited = 0; waited < 5000; waited += 50) {
      const { rows } = await client.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
      if (rows[0]!.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await client.query(`drop database if exists ${name} with (force)`);
  } finally {
    await client.end();
  }
};

let template: Promise<Blob> | undefined;

/**
 * The migrated cluster every PGlite test database starts from (pglite-template.ts): made once and kept
 * in the temporary folder, named for the PGlite version and the source of every migration (editing one
 * makes a new template). Starting PGlite from it takes a second or two; initdb takes ten or more.
 */
const pgliteTemplate = (): Promise<Blob> => {
  template ??= (async () => {
    // The resolved path names the installed version (pnpm keeps one folder per version).
    const hash = createHash("sha256").update(`${createRequire(import.meta.url).resolve("@electric-sql/pglite")}\n`);
    for (const [name, migration] of Object.entries(migrations)) hash.update(`${name}\n${migration.up.toString()}\n${migration.down?.toString()}\n`);
    const file = join(tmpdir(), `crown-pglite-template-${hash.digest("hex").slice(0, 16)}.tar.gz`);
    return readPgliteTemplate(file) ?? (await writePgliteTemplate(file));
  })();
  return template;
};

/** A fresh, migrated database of the given kind, with the adapter's layer over it. */
export const createTestDatabase = async (kind: DatabaseKind): Promise<TestDatabase> => {
  if (kind === "pglite") {
    const connection = await connectPglite(undefined, { loadDataDir: await pgliteTemplate() });
    // Migrations added since the template was made (none, normally) still apply.
    await migrateToLatest(connection.db);
    return { kind, db: connection.db, layer: makeDatabaseLayer(connection.db), drop: connection.close, pglite: connection.pglite };
  }
  const adminUrl = await postgresServerUrl();
  if (adminUrl === null) throw new Error("No PostgreSQL server is reachable for integration tests");
  const name = `crown_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const connection = connectPostgres(withDatabase(adminUrl, name), 5);
  try {
    await migrateToLatest(connection.db);
  } catch (error) {
    await connection.close();
    await dropWhenIdle(adminUrl, name);
    throw error;
  }
  return {
    kind,
    db: connection.db,
    layer: makeDatabaseLayer(connection.db),
    url: withDatabase(adminUrl, name),
    drop: async () => {
      await connection.close();
      await dropWhenIdle(adminUrl, name);
    },
  };
};
