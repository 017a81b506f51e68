import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Users } from "@crown/core";
import { Effect, Option } from "effect";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { connectDatabase, connectPostgres, PREPARED_PER_CONNECTION } from "./connect.ts";
import { makeDatabaseLayer } from "./index.ts";
import type { Database } from "./schema.ts";
import { migrateToLatest } from "./migrations/index.ts";
import { aUser } from "./testing-fixtures.ts";
import { createTestDatabase, databaseKinds, postgresServerUrl, type TestDatabase } from "./testing.ts";

describe("connectDatabase", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "crown-db-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("keeps PGlite data under the data directory across restarts", async () => {
    const user = aUser();
    const first = await connectDatabase({ dataDir });
    expect(first.kind).toBe("pglite");
    await migrateToLatest(first.db);
    await Effect.runPromise(Effect.provide(Effect.flatMap(Users, (users) => users.insert(user)), makeDatabaseLayer(first.db)));
    await first.close();

    const second = await connectDatabase({ dataDir });
    try {
      const found = await Effect.runPromise(Effect.provide(Effect.flatMap(Users, (users) => users.findById(user.id)), makeDatabaseLayer(second.db)));
      expect(Option.map(found, (u) => u.email)).toEqual(Option.some(user.email));
    } finally {
      await second.close();
    }
  }, 240_000); // a fresh PGlite start takes 10-20 s alone, minutes on a loaded machine

  it("refuses to open a PGlite data directory that is already open", async () => {
    const first = await connectDatabase({ dataDir });
    try {
      await expect(connectDatabase({ dataDir })).rejects.toThrow(/in use by process/);
    } finally {
      await first.close();
    }
    const again = await connectDatabase({ dataDir });
    await again.close();
  }, 240_000); // a fresh PGlite start takes 10-20 s alone, minutes on a loaded machine

  it("connects to PostgreSQL when given a URL", async (context) => {
    const url = await postgresServerUrl();
    if (url === null) return context.skip();
    const connection = await connectDatabase({ databaseUrl: url, dataDir });
    try {
      expect(connection.kind).toBe("postgres");
      const { rows } = await sql<{ one: number }>`select 1::int as one`.execute(connection.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await connection.close();
    }
  });
});

describe("prepared statements on PostgreSQL (ADR 0103)", () => {
  // One connection, so the statements seen and the catalogue read are the same session's.
  // Skipped, like every PostgreSQL test here, when no server is reachable.
  const onOneConnection = async (context: TestContext, prepared: boolean, use: (db: Kysely<Database>) => Promise<void>) => {
    const url = await postgresServerUrl();
    if (url === null) return context.skip();
    const connection = connectPostgres(url, 1, prepared);
    try {
      await use(connection.db);
    } finally {
      await connection.close();
    }
  };
  const preparedTexts = async (db: Kysely<Database>) =>
    (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db)).rows;

  it("names each distinct read and write once per connection, plans every execution for its own values, and never prepares DDL", async (context) => {
    await onOneConnection(context, true, async (db) => {
      const read = (n: number) => db.selectNoFrom(sql<number>`${n}::int`.as("n")).execute();
      expect(await read(1)).toEqual([{ n: 1 }]);
      expect(await read(2)).toEqual([{ n: 2 }]); // the same text, another value: the prepared statement, rebound
      await sql`create temporary table prepared_probe (n int)`.execute(db);
      await sql`insert into prepared_probe (n) values (${3})`.execute(db);
      const texts = await preparedTexts(db);
      expect(texts.filter((t) => t.statement.startsWith('select $1::int as "n"'))).toHaveLength(1);
      expect(texts.some((t) => t.statement.startsWith("insert into prepared_probe"))).toBe(true);
      expect(texts.some((t) => /^create/i.test(t.statement))).toBe(false);
      expect(texts.every((t) => t.name.startsWith("crown_"))).toBe(true);
      const { rows } = await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(db);
      expect(rows[0]?.plan_cache_mode).toBe("force_custom_plan");
    });
  });

  it("keeps at most PREPARED_PER_CONNECTION statements, and past them still answers", async (context) => {
    await onOneConnection(context, true, async (db) => {
      for (let i = 0; i < PREPARED_PER_CONNECTION + 10; i++) {
        const { rows } = await sql<{ n: number }>`select ${i}::int + ${sql.lit(i)} as n`.execute(db);
        expect(rows).toEqual([{ n: 2 * i }]);
      }
      expect((await preparedTexts(db)).length).toBe(PREPARED_PER_CONNECTION);
    });
  });

  it("prepares nothing when turned off (DATABASE_PREPARED_STATEMENTS=off)", async (context) => {
    await onOneConnection(context, false, async (db) => {
      await sql`select ${1}::int as n`.execute(db);
      expect(await preparedTexts(db)).toEqual([]);
    });
  });
});

describe.each(await databaseKinds())("column types on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.drop());

  it("reads the same JavaScript values from both drivers", async () => {
    const { rows } = await sql`
      select 9007199254740991::int8 as big, count(*) as counted, 1.25::numeric as exact, 2.5::float8 as float,
             '2026-01-02'::date as day, '2026-11-22T04:00:00.123Z'::timestamptz as stamp,
             '{"x": [1, "y"]}'::jsonb as doc, true as yes, 7::int4 as small`.execute(t.db);
    expect(rows).toEqual([
      {
        big: 9007199254740991,
        counted: 1,
        exact: 1.25,
        float: 2.5,
        day: "2026-01-02",
        stamp: new Date("2026-11-22T04:00:00.123Z"),
        doc: { x: [1, "y"] },
        yes: true,
        small: 7,
      },
    ]);
  });

  it("writes Date parameters as the same instant", async () => {
    const instant = new Date("2026-11-22T04:00:00.123Z");
    const { rows } = await sql<{ same: boolean }>`select ${instant}::timestamptz = '2026-11-22T04:00:00.123Z'::timestamptz as same`.execute(t.db);
    expect(rows).toEqual([{ same: true }]);
  });
});
