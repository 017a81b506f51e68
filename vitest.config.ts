import { defineConfig } from "vitest/config";

// One runner for every package: unit tests (*.test.ts) and integration tests (*.int.test.ts)
// that talk to real PostgreSQL / PGlite / an S3 server.
export default defineConfig({
  test: {
    include: ["core/src/**/*.test.ts", "adapters/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts", "apps/*/src/**/*.test.tsx", "tests/api/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2,
  },
});
