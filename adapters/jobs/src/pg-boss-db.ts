import type { Executor } from "@crown/db";
import { CompiledQuery } from "kysely";

/**
 * pg-boss's database interface (`{ executeSql(text, values) }`, its `db` option) over a Kysely
 * executor: the root database, or the transaction in progress (docs/adr/0005-job-queue.md).
 * pg-boss then needs no `pg` pool of its own, so it runs on embedded PGlite (one in-process
 * connection) as on PostgreSQL, and a job sent with `{ db: pgBossDb(transaction) }` commits or
 * rolls back with that transaction.
 */
export interface PgBossDb {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface TrackedPgBossDb extends PgBossDb {
  /** Resolves when no statement sent through this adapter is still running. */
  readonly settled: () => Promise<void>;
  /** Statements still running. */
  readonly pending: () => number;
}

/**
 * Splits a script into its statements at top-level semicolons: not inside quotes, identifiers,
 * dollar-quoted bodies (`$$ … $$`, `$tag$ … $tag$`) or comments.
 */
export const splitStatements = (script: string): string[] => {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  const n = script.length;
  while (i < n) {
    const c = script[i]!;
    if (c === "'" || c === '"') {
      const end = script.indexOf(c, i + 1);
      i = end < 0 ? n : end + 1;
    } else if (c === "-" && script[i + 1] === "-") {
      const end = script.indexOf("\n", i);
      i = end < 0 ? n : end + 1;
    } else if (c === "/" && script[i + 1] === "*") {
      const end = script.indexOf("*/", i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === "$") {
      const tag = /^\$[A-Za-z_][A-Za-z0-9_]*\$|^\$\$/.exec(script.slice(i, i + 64))?.[0];
      if (tag) {
        const end = script.indexOf(tag, i + tag.length);
        i = end < 0 ? n : end + tag.length;
      } else i++;
    } else if (c === ";") {
      statements.push(script.slice(start, i));
      start = ++i;
    } else i++;
  }
  statements.push(script.slice(start));
  return statements.map((s) => s.trim()).filter((s) => s.length > 0);
};

/**
 * The adapter. A statement with parameters runs as one query on `ex` (extended protocol, as pg
 * does). A script without parameters may hold several statements (pg-boss's schema creation and
 * its locked maintenance commands: `BEGIN; SELECT pg_advisory_xact_lock(…); …; COMMIT`): PGlite's
 * extended protocol takes one statement at a time, so they run one by one, in order, on one
 * connection, and a failed script rolls back what it began.
 */
export const pgBossDb = (ex: Executor): TrackedPgBossDb => {
  const running = new Set<Promise<unknown>>();
  const track = <A>(p: Promise<A>): Promise<A> => {
    running.add(p);
    const done = () => void running.delete(p);
    p.then(done, done);
    return p;
  };
  const execute = async (text: string, values: unknown[] | undefined): Promise<{ rows: any[] }> => {
    if (values !== undefined && values.length > 0) {
      const parameters = values.map((v) => (v === undefined ? null : v));
      return { rows: [...(await ex.executeQuery(CompiledQuery.raw(text, parameters))).rows] };
    }
    const statements = splitStatements(text);
    if (statements.length <= 1) return { rows: [...(await ex.executeQuery(CompiledQuery.raw(statements[0] ?? text))).rows] };
    const script = async (run: (statement: string) => Promise<readonly unknown[]>) => {
      let rows: readonly unknown[] = [];
      const began = /^(begin|start\s+transaction)\b/i.test(statements[0]!);
      try {
        for (const statement of statements) rows = await run(statement);
      } catch (error) {
        if (began) await run("rollback").catch(() => undefined);
        throw error;
      }
      return { rows: [...rows] };
    };
    if (ex.isTransaction) return script(async (s) => (await ex.executeQuery(CompiledQuery.raw(s))).rows);
    return ex.connection().execute((conn) => script(async (s) => (await conn.executeQuery(CompiledQuery.raw(s))).rows));
  };
  return {
    executeSql: (text, values) => track(execute(text, values)),
    pending: () => running.size,
    settled: async () => {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
};
