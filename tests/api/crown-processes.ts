// Real `crown ...` processes for the multi-process tests: started in their own process group and
// data directory, watched for an early exit, and stopped with everything they started.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { crownCommand } from "../crown-command.ts";
import { freePort } from "../e2e/helpers/server.ts";
import { b64, fetchApiCall, withSecondStep } from "./harness.ts";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface CrownProcess {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly dataDir: string;
}

/** `crown <args>` (tests/crown-command.ts) with `env` over this process's environment and a fresh CROWN_DATA_DIR (or the one given, to restart on it). */
export const spawnCrown = (args: string[], env: Record<string, string>, dataDirPrefix = "crown-proc-", reuseDataDir?: string): CrownProcess => {
  const dataDir = reuseDataDir ?? mkdtempSync(path.join(tmpdir(), dataDirPrefix));
  let output = "";
  const [command, commandArgs] = crownCommand(args);
  const child = spawn(command, commandArgs, {
    cwd: repoRoot,
    env: { ...process.env, ...env, CROWN_DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", (d) => (output += String(d)));
  child.stderr?.on("data", (d) => (output += String(d)));
  return { child, output: () => output, dataDir };
};

/** Polls `check` until it holds; fails with the process's output if it exits or time runs out. */
export const waitUntil = async (what: string, p: CrownProcess, check: () => Promise<boolean> | boolean, timeoutMs = 120_000) => {
  const deadline = Date.now() + timeoutMs;
  let unreached = 0;
  for (;;) {
    if (p.child.exitCode !== null) throw new Error(`${what}: the process exited with ${p.child.exitCode}:\n${p.output()}`);
    let held: boolean;
    try {
      held = await check();
      unreached = 0;
    } catch (error) {
      await new Promise((r) => setTimeout(r, 500));
      // One call that did not reach a running server is the client's connection, not the server: after a
      // kill -9 this process's fetch may still hold a pooled connection to the process that died. Twice in
      // a row, or a dead process: say whether it died, with what it printed.
      if (++unreached < 2 && p.child.exitCode === null) continue;
      const why = error instanceof Error && error.cause ? `${String(error)}: ${String(error.cause)}` : String(error);
      throw new Error(`${what}: ${why} (process ${p.child.exitCode === null ? "still running" : `exited with ${p.child.exitCode}`}):\n${p.output()}`, { cause: error });
    }
    if (held) return;
    if (Date.now() > deadline) throw new Error(`${what}: timed out:\n${p.output()}`);
    await new Promise((r) => setTimeout(r, 300));
  }
};

/**
 * `pnpm crown start` with `env` on a free port (PORT and PUBLIC_URL set to it), once it answers /readyz:
 * the process and its address. A start that never gets ready is stopped before the error is thrown.
 */
export const startCrown = async (env: Record<string, string>, dataDirPrefix?: string): Promise<CrownProcess & { readonly url: string }> => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const p = spawnCrown(["start"], { ...env, PORT: String(port), PUBLIC_URL: url }, dataDirPrefix);
  try {
    await waitUntil("crown start becoming ready", p, async () => {
      try {
        return (await fetch(`${url}/readyz`)).ok;
      } catch {
        return false; // not listening yet
      }
    });
  } catch (error) {
    await stopCrown(p);
    throw error;
  }
  return { ...p, url };
};

/** SIGTERM to the whole process group (pnpm, tsx, node), SIGKILL after 10 s; then the data directory goes. */
export const stopCrown = async (p: CrownProcess | undefined) => {
  if (!p) return;
  if (p.child.exitCode === null && p.child.pid) {
    const exited = new Promise((r) => p.child.once("exit", r));
    try {
      process.kill(-p.child.pid, "SIGTERM");
    } catch {
      p.child.kill("SIGTERM");
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (p.child.exitCode === null) {
      try {
        process.kill(-p.child.pid, "SIGKILL");
      } catch {
        // gone
      }
    }
  }
  rmSync(p.dataDir, { recursive: true, force: true });
};

/** The node process running Crown under `pnpm crown` (pnpm, sh, tsx, node), or null. */
export const crownProcessOf = (pid: number): number | null => {
  let current = pid;
  for (let depth = 0; depth < 6; depth++) {
    let children: number[] = [];
    try {
      children = readFileSync(`/proc/${current}/task/${current}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return null;
    }
    if (children.length === 0) return current === pid ? null : current;
    current = children[0]!;
    // tsx's child runs Crown (anything it starts itself, ffmpeg, is below it).
    if (readFileSync(`/proc/${current}/cmdline`, "utf8").includes("preflight.cjs")) return current;
  }
  return current;
};

/**
 * SIGTERM to the Crown process (or the whole process group), then waits until none of it is left: pnpm ends at once, the Crown
 * process under it only once it has drained (its requests, its job, its buffered spans).
 */
export const terminateAndWait = async (p: CrownProcess, timeoutMs = 120_000) => {
  if (!p.child.pid) return;
  // The Crown process itself gets the signal, as a container's process does from its runtime; pnpm and tsx
  // above it end when it ends. (Signalled too, pnpm leaves at once and tsx relays, which is not production.)
  const target = crownProcessOf(p.child.pid);
  try {
    process.kill(target ?? -p.child.pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(-p.child.pid, 0);
    } catch {
      return;
    }
    if (Date.now() > deadline) throw new Error(`process group ${p.child.pid} still running ${timeoutMs} ms after SIGTERM:\n${p.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** kill -9 of the whole process group: no shutdown code runs (a crash). */
export const killCrown = async (p: CrownProcess) => {
  if (p.child.exitCode !== null || !p.child.pid) return;
  const exited = new Promise((r) => p.child.once("exit", r));
  process.kill(-p.child.pid, "SIGKILL");
  await exited;
};

/** JSON (or multipart) calls and sign-in against a running crown process at `baseUrl()` (read per call: ports are chosen late). */
export const processApi = (baseUrl: () => string, password: string) => {
  const api = async (method: string, route: string, token: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${baseUrl()}/api/v1/en${route}`, { method, headers, body: payload });
    return { status: res.status, json: (await res.json()) as any };
  };
  // Reviewers, admins and staff pass the second step (issue 44): set up once, then a recovery code.
  const { signInCall } = withSecondStep(fetchApiCall(baseUrl));
  const signIn = async (email: string) => {
    const r = await signInCall("POST", "/user/sign-in", { body: { email, password: b64(password), device_type: "web" } });
    if (r.status !== 200) throw new Error(`sign-in of ${email} failed: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json.results.token as string;
  };
  return { api, signIn };
};
