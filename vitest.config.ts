import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

// Two projects. Unit tests (*.test.ts) and integration tests (*.int.test.ts, real PostgreSQL / PGlite /
// an S3 server) run in parallel; browser tests (real Chromium against the real server) run one file at
// a time. `pnpm test` runs every project below side by side, each in a vitest process of its own
// (tests/suite.ts reads `projects`; docs/adr/0135); `vitest run` runs them one after the other.
export const projects = [
  {
    extends: true,
    test: {
      name: "unit+integration",
      include: ["core/src/**/*.test.ts", "adapters/*/src/**/*.test.ts", "apps/*/src/**/*.test.{ts,tsx}", "tests/api/**/*.test.ts", "tests/architecture/**/*.test.ts"],
      exclude: ["**/node_modules/**", "**/*.browser.test.ts"],
      pool: "forks",
      maxWorkers: 2,
    },
  },
  {
    extends: true,
    test: {
      name: "browser",
      include: ["tests/e2e/**/*.spec.ts", "**/*.browser.test.ts", "tests/inference-browser/**/*.test.ts"],
      exclude: ["**/node_modules/**"],
      pool: "forks",
      fileParallelism: false,
      testTimeout: 180_000,
    },
  },
] satisfies TestProjectInlineConfiguration[];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    projects,
  },
});
