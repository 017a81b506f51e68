import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMigrations, migrateToLatest, migrations } from "./migrations/index.ts";
import { createTestDatabase, databaseKinds, type TestDatabase } from "./testing.ts";

describe.each(await databaseKinds())("migrations on %s", (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t?.drop());

  it("applies every migration, in name order", async () => {
    const listed = await listMigrations(t.db);
    expect(listed.map((m) => m.name)).toEqual(Object.keys(migrations).sort());
    expect(listed.every((m) => m.executedAt instanceof Date)).toBe(true);
  });

  it("creates the accounts tables", async () => {
    const tables = await t.db.introspection.getTables();
    expect(tables.map((table) => table.name)).toEqual(
      expect.arrayContaining(["users", "sessions", "one_time_tokens", "audit_events", "rate_limit_buckets"]),
    );
  });

  it("is a no-op when run again", async () => {
    const again = await migrateToLatest(t.db);
    expect(again.results).toEqual([]);
  });

  it("keeps e-mail addresses lower-case and unique", async () => {
    const row = {
      id: "01UPPERCASE0000000000000000",
      email: "Someone@Example.com",
      password_hash: "x",
      type: "parent" as const,
      status: "Active" as const,
      first_name: "A",
      last_name: "B",
      password_changed_at: new Date(),
    };
    await expect(t.db.insertInto("users").values(row).execute()).rejects.toThrow();
    await expect(sql`select 1`.execute(t.db)).resolves.toBeDefined();
  });
});
