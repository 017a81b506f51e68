import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * How a test runs the `crown` command (start, worker, user:create, ...).
 *
 * `pnpm test` builds the release before the suite and tests/suite.ts sets CROWN_TEST_RELEASE=1, so the
 * whole suite runs the bundle that ships (`node dist/release/crown.mjs`). That is also the cheaper
 * process: tsx compiles the server's sources again at every start, about 8 s of CPU each, and the suite
 * starts Crown about a hundred times. Run by hand, a test runs the sources through tsx (`pnpm crown`),
 * so an edit needs no rebuild.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const RELEASE_BUNDLE = path.join(ROOT, "dist/release/crown.mjs");

/** True when this run tests the built release (and the release is there to test). */
export const testsTheRelease = (): boolean => {
  if (process.env.CROWN_TEST_RELEASE !== "1") return false;
  // Asked for but missing is a broken run, not a reason to test something else quietly.
  if (!existsSync(RELEASE_BUNDLE)) throw new Error(`CROWN_TEST_RELEASE=1 but ${RELEASE_BUNDLE} is missing: run pnpm run build first`);
  return true;
};

/** The program and arguments that run `crown <args>` from the checkout's root; output is the command's own (no pnpm banner). */
export const crownCommand = (args: readonly string[]): [string, string[]] =>
  testsTheRelease() ? [process.execPath, [RELEASE_BUNDLE, ...args]] : ["pnpm", ["--silent", "crown", ...args]];
