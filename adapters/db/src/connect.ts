import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Kysely, PostgresDialect, sql } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";
import type { Database } from "./schema.ts";

export type DatabaseKind = "postgres" | "pglite";

export interface DatabaseConnection {
  readonly db: Kysely<Database>;
  readonly kind: DatabaseKind;
  /** Closes the pool (PostgreSQL) or the embedded database (PGlite). */
  readonly close: () => Promise<void>;
  /** PostgreSQL: the pool's connections now (for the metrics, ADR 0142). */
  readonly poolStats?: () => { total: number; idle: number; waiting: number };
}

export interface ConnectOptions {
  /** A `postgres://` URL; unset: embedded PGlite under `dataDir`. */
  readonly databaseUrl?: string | undefined;
  readonly dataDir: string;
  /** PostgreSQL pool size (default 10). */
  readonly poolSize?: number;
  /** Named prepared statements on PostgreSQL (default on; off behind a pooler that cannot keep them, ADR 0103). */
  readonly preparedStatements?: boolean;
  /** For a new embedded data directory: a migrated cluster's dump to start from (pglite-template.ts), if one is at hand. */
  readonly embeddedTemplate?: () => Blob | undefined;
}

// Both drivers return the same JavaScript types for the same columns: int8 (counts, bigserial)
// and numeric as numbers, date as its `YYYY-MM-DD` text (a calendar day, never shifted by a zone).
const OID = { int8: 20, numeric: 1700, date: 1082 } as const;
const toNumber = (value: string) => Number(value);
const asText = (value: string) => value;

const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === OID.int8 || oid === OID.numeric) return toNumber;
    if (oid === OID.date) return asText;
    return pg.types.getTypeParser(oid, format as "text");
  }) as typeof pg.types.getTypeParser,
};

const pgliteParsers = {
  [OID.int8]: toNumber,
  [OID.numeric]: toNumber,
  [OID.date]: asText,
};

/** Distinct statements a connection keeps prepared; past it a statement is parsed each time, as before. */
export const PREPARED_PER_CONNECTION = 256;
/** What is prepared: reads and writes of rows (never DDL, whose cached plans a migration would invalidate). */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Named prepared statements (ADR 0103). Kysely sends every statement unnamed, so PostgreSQL parses and
 * analyses the same text on every request (0.1-0.5 ms a statement for the Results page's, before planning
 * and running it). Each pooled connection now names the statements it sees (up to
 * `PREPARED_PER_CONNECTION` distinct texts) and pg parses each once per connection. Plans stay custom
 * (`plan_cache_mode=force_custom_plan` on these connections): every execution is planned for its own
 * values, as the plan tests check them, never one generic plan for a 1k and a 100k physician alike.
 */
const prepareStatements = (client: pg.PoolClient) => {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const names = new Map<string, string>();
  (client as { query: unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof config === "string" && Array.isArray(values) && callback === undefined && PREPARABLE.test(config)) {
      let name = names.get(config);
      if (name === undefined && names.size < PREPARED_PER_CONNECTION) {
        name = `crown_${names.size + 1}`;
        names.set(config, name);
      }
      if (name !== undefined) return query({ name, text: config, values });
    }
    return callback === undefined ? query(config, values) : query(config, values, callback);
  };
};

export const connectPostgres = (databaseUrl: string, poolSize = 10, preparedStatements = true): DatabaseConnection => {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    types: pgTypes,
    connectionTimeoutMillis: 10_000,
    // Idle connections are kept five minutes, not pg's ten seconds: a new backend builds its catalog caches and
    // plans its first statements slowly (the first plan of the Results query took 14 ms, later ones under 1), and
    // it was the moment of a burst, when the pool grows, that paid for them again and again.
    idleTimeoutMillis: 300_000,
    ...(preparedStatements ? { options: "-c plan_cache_mode=force_custom_plan" } : {}),
  });
  if (preparedStatements) pool.on("connect", prepareStatements);
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", (error) => console.error(JSON.stringify({ at: new Date().toISOString(), level: "warn", msg: "idle PostgreSQL client error", error: error.message })));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: "postgres", close: () => db.destroy(), poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }) };
};

/**
 * Embedded PostgreSQL (PGlite). `dataDir` undefined: in memory. PGlite is one connection: the
 * dialect's driver hands it to one Kysely connection at a time and queues the others, and a
 * transaction keeps it from BEGIN to COMMIT/ROLLBACK, so concurrent requests never interleave
 * statements inside each other's transactions (tested in transactor.int.test.ts).
 * `loadDataDir`: start from a dump (`PGlite.dumpDataDir`) instead of an empty cluster.
 */
const openHere = new Set<string>();

/** Whether the process that wrote a lock file still runs: one we may not signal (EPERM) runs too. */
export const processIsAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * PGlite has no lock of its own, and two processes writing one data directory corrupt it (say the
 * server and `pnpm crown user:create`). A lock file beside the directory, holding the owner's pid,
 * refuses the second opener with a message saying what to do; a lock left by a dead process is taken over.
 */
const lockDataDir = (dataDir: string): (() => void) => {
  const lockFile = `${dataDir}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      openHere.add(dataDir);
      return () => {
        openHere.delete(dataDir);
        try {
          unlinkSync(lockFile);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
      const owner = Number.parseInt(readFileSync(lockFile, "utf8"), 10);
      // The same pid may be a previous run of this process (pid 1 in a restarted container).
      const held = owner === process.pid ? openHere.has(dataDir) : Number.isInteger(owner) && owner > 0 && processIsAlive(owner);
      if (held) {
        throw new Error(
          `The embedded database in ${dataDir} is in use by process ${owner}. Stop that process first, or set DATABASE_URL so that several processes share one PostgreSQL server.`,
        );
      }
      unlinkSync(lockFile);
    }
  }
};

export const connectPglite = async (
  dataDir: string | undefined,
  options: { loadDataDir?: Blob; template?: () => Blob | undefined } = {},
): Promise<DatabaseConnection & { readonly pglite: PGlite }> => {
  let unlock = () => {};
  if (dataDir !== undefined) {
    mkdirSync(dirname(dataDir), { recursive: true });
    unlock = lockDataDir(dataDir);
  }
  try {
    const settings = {
      parsers: pgliteParsers,
      // Trigram search, as on PostgreSQL (the list indexes, ADR 0072).
      extensions: { pg_trgm },
      // 16 MB of shared buffers, not 128: the files are cached by the OS too, and the embedded database
      // serves one small practice. About 115 MB less resident memory (ADR 0073).
      startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"],
    };
    const fresh = dataDir !== undefined && !existsSync(join(dataDir, "PG_VERSION"));
    // A new data directory starts from a migrated template where one is (ADR 0172)...
    const loadDataDir = options.loadDataDir ?? (fresh ? options.template?.() : undefined);
    // ...else from initdb, which grows the WebAssembly memory by ~600 MB that an instance never gives
    // back: run it in an instance of its own and drop that, so the one that serves starts small (ADR 0073).
    if (fresh && loadDataDir === undefined) await (await PGlite.create({ dataDir, ...settings })).close();
    const client = await PGlite.create({
      ...(dataDir !== undefined ? { dataDir } : {}),
      ...(loadDataDir !== undefined ? { loadDataDir } : {}),
      ...settings,
    });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
    return { db, kind: "pglite", pglite: client, close: () => db.destroy().finally(unlock) };
  } catch (error) {
    unlock();
    throw error;
  }
};

/** PostgreSQL when a URL is given, else PGlite stored under `${dataDir}/pglite`. */
export const connectDatabase = async (options: ConnectOptions): Promise<DatabaseConnection> =>
  options.databaseUrl
    ? connectPostgres(options.databaseUrl, options.poolSize, options.preparedStatements)
    : connectPglite(join(options.dataDir, "pglite"), options.embeddedTemplate ? { template: options.embeddedTemplate } : {});

/** Resolves when the database answers a query (for `/readyz`); rejects otherwise. */
export const pingDatabase = async (db: Kysely<Database>): Promise<void> => {
  await sql`select 1`.execute(db);
};
