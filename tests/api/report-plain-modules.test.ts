import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";

/**
 * The review console and the upload list import core's report lifecycle and entities (ADR 42): those
 * two modules must import values from xstate only (type imports are erased), so no Effect reaches the
 * browser through them.
 */
describe("the report modules the browser imports stay plain", () => {
  it.each(["lifecycle.ts", "entities.ts"])("core/src/report/%s imports values from xstate only", async (file) => {
    const source = await readFile(new URL(`../../core/src/report/${file}`, import.meta.url), "utf8");
    const valueImports = [...source.matchAll(/^import (?!type )[^;]*? from "([^"]+)";/gm)].map((m) => m[1]);
    expect(valueImports.filter((from) => from !== "xstate")).toEqual([]);
  });
});
