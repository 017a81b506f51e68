import { describe, expect, it, vi } from "vitest";
import { databaseKinds } from "./testing.ts";

const unreachable = async () => null;
const reachable = async () => "postgres://postgres@127.0.0.1:5432/postgres";

describe("databaseKinds: which databases the integration tests run on", () => {
  it("fails loudly in CI when PostgreSQL is unreachable, instead of running on PGlite alone", async () => {
    for (const CI of ["true", "1"]) {
      await expect(databaseKinds({ CI }, unreachable)).rejects.toThrow(/no PostgreSQL server is reachable/);
    }
  });

  it("runs on both in CI when PostgreSQL answers", async () => {
    expect(await databaseKinds({ CI: "true" }, reachable)).toEqual(["pglite", "postgres"]);
  });

  it("on a developer machine, a missing server only warns", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      expect(await databaseKinds({}, unreachable)).toEqual(["pglite"]);
      expect(await databaseKinds({ CI: "false" }, unreachable)).toEqual(["pglite"]);
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      warn.mockRestore();
    }
  });

  it("CROWN_TEST_DB chooses on purpose: pglite alone even in CI, postgres alone or an error", async () => {
    expect(await databaseKinds({ CI: "true", CROWN_TEST_DB: "pglite" }, unreachable)).toEqual(["pglite"]);
    expect(await databaseKinds({ CROWN_TEST_DB: "postgres" }, reachable)).toEqual(["postgres"]);
    await expect(databaseKinds({ CROWN_TEST_DB: "postgres" }, unreachable)).rejects.toThrow(/CROWN_TEST_DB=postgres/);
  });
});
