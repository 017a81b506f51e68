import { defineConfig } from "vitest/config";

// Runs the browser suites on their own: `npx vitest run --config tests/e2e/helpers/vitest.config.ts`.
export default defineConfig({
  test: {
    root: new URL("../../..", import.meta.url).pathname,
    include: ["tests/e2e/web-*.spec.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2,
  },
});
