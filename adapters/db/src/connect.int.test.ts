import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Users } from "@crown/core";
import { Effect, Option } from "effect";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDatabase } from "./connect.ts";
import { makeDatabaseLayer } from "./index.ts";
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
