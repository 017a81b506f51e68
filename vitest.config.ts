import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

// Unit tests (*.test.ts) and integration tests (*.int.test.ts, real PostgreSQL / PGlite / an S3 server)
// run in parallel; browser tests (real Chromium against the real server) run two files at a time. `pnpm test` runs every project below side by side, each in a vitest process of its own
// (tests/suite.ts reads `projects`; docs/adr/0135); `vitest run` runs them one after the other.
/**
 * The storage adapters' integration tests measure a 50 MB upload's memory and stream it to a real S3 server:
 * in a worker that has run other files (isolate: false below) other files' leftovers disturb both (the S3 put
 * was cut off, "socket hang up", in two full runs). They run in a process per file.
 */
const OWN_PROCESS = ["adapters/storage/src/**/*.int.test.ts"];

export const projects = [
  {
    extends: true,
    test: {
      name: "unit+integration",
      include: ["core/src/**/*.test.ts", "adapters/*/src/**/*.test.ts", "apps/*/src/**/*.test.{ts,tsx}", "tests/api/**/*.test.ts", "tests/architecture/**/*.test.ts"],
      exclude: ["**/node_modules/**", "**/*.browser.test.ts", ...OWN_PROCESS],
      pool: "forks",
      maxWorkers: 2,
      // Each worker keeps the modules it has loaded from one file to the next: every API test imports the
      // whole server, and importing it again per file was a third of the project's CPU (ADR 0172). A test
      // that changes a module's state must put it back (the database, the server and the clock are per file).
      isolate: false,
      setupFiles: ["tests/setup/restore-globals.ts"],
    },
  },
  {
    extends: true,
    test: {
      name: "storage",
      include: OWN_PROCESS,
      exclude: ["**/node_modules/**"],
      pool: "forks",
      maxWorkers: 1,
    },
  },
  {
    extends: true,
    test: {
      name: "browser",
      include: ["tests/e2e/**/*.spec.ts", "**/*.browser.test.ts", "tests/inference-browser/**/*.test.ts"],
      exclude: ["**/node_modules/**"],
      pool: "forks",
      // Two files at a time (ADR 0175): a file spends much of its time waiting on Chromium, the server's
      // timers and the network, and one at a time left a core idle for the phase's last minutes.
      // Each file starts its own Crown on its own port and data directory, and its own Chromium.
      maxWorkers: 2,
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
