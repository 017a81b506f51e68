import { defineConfig } from "vitest/config";

// Browser tests of the inference adapter: `pnpm vitest run --config tests/inference-browser/vitest.config.ts`.
export default defineConfig({
  test: {
    root: new URL("../../", import.meta.url).pathname,
    include: ["tests/inference-browser/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    maxWorkers: 1,
  },
});
