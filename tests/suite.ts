// The whole test suite, as `pnpm test` runs it after the layer rule, the types and the build.
//
// Vitest runs a project whose files go one at a time only after every other project has finished.
// Here the projects run side by side, each in its own vitest process (docs/adr/0135), all at the
// caller's priority: a project niced below the others starved whenever anything else used the cores
// (beside `stress --cpu 2` the unit project had run no file in 16 minutes; ADR 0175).
//   pnpm tsx tests/suite.ts
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { projects } from "../vitest.config.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

interface Project {
  readonly name: string;
}

const PROJECTS: readonly Project[] = projects.map(({ test }) => ({ name: test.name }));

/** Writes a stream line by line, each line tagged with its project, so interleaved output stays readable. */
const tagLines = (tag: string, out: NodeJS.WriteStream) => {
  let pending = "";
  return {
    write: (chunk: Buffer | string) => {
      pending += String(chunk);
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) out.write(`[${tag}] ${line}\n`);
    },
    end: () => {
      if (pending) out.write(`[${tag}] ${pending}\n`);
      pending = "";
    },
  };
};

/**
 * A project still running after this long has hung (the slowest took 26 minutes in CI, beside the others): it is
 * stopped with everything it started and reported, so CI ends with the project's name and output instead of
 * running into its own limit (90 minutes) with nothing said.
 */
const PROJECT_LIMIT_MS = Number(process.env.CROWN_SUITE_PROJECT_MINUTES ?? 60) * 60_000;

/** Each project's process group, so a stopped project takes its vitest workers, servers and browsers with it. */
const groups = new Set<number>();
const stopGroup = (pid: number) => {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    for (const pid of groups) stopGroup(pid);
    process.exit(1);
  });
}

const run = (project: Project): Promise<{ project: Project; code: number; seconds: number }> =>
  new Promise((resolve) => {
    const started = performance.now();
    // `pnpm test` has just built the release: every test that starts Crown starts it (tests/crown-command.ts).
    const child = spawn("pnpm", ["exec", "vitest", "run", "--project", project.name], {
      cwd: ROOT,
      env: { ...process.env, CROWN_TEST_RELEASE: process.env.CROWN_TEST_RELEASE ?? "1" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    if (child.pid) groups.add(child.pid);
    const limit = setTimeout(() => {
      process.stderr.write(`[${project.name}] still running after ${PROJECT_LIMIT_MS / 60_000} min: stopped, with everything it started.\n`);
      if (child.pid) stopGroup(child.pid);
    }, PROJECT_LIMIT_MS);
    const stdout = tagLines(project.name, process.stdout);
    const stderr = tagLines(project.name, process.stderr);
    child.stdout.on("data", stdout.write);
    child.stderr.on("data", stderr.write);
    let finished = false;
    // 'error' (vitest could not start) may be followed by 'close': the first one decides.
    const finish = (code: number) => {
      if (finished) return;
      finished = true;
      clearTimeout(limit);
      if (child.pid) groups.delete(child.pid);
      stdout.end();
      stderr.end();
      resolve({ project, code, seconds: (performance.now() - started) / 1000 });
    };
    child.on("error", (error) => {
      process.stderr.write(`[${project.name}] could not start vitest: ${error.message}\n`);
      finish(1);
    });
    // No exit code means a signal ended it: a failure.
    child.on("close", (code) => finish(code ?? 1));
  });

const results = await Promise.all(PROJECTS.map(run));
process.stdout.write("\n");
for (const { project, code, seconds } of results) {
  process.stdout.write(`${project.name.padEnd(18)} ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s\n`);
}
process.exit(results.every((r) => r.code === 0) ? 0 : 1);
