import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findLink, readOutbox, type OutboxMessage } from "@crown/mail";
import { crownCommand } from "../../crown-command.ts";

/**
 * Starts the real Crown server (`crown start`, tests/crown-command.ts) on a free port and a temporary data dir, for
 * the browser tests. E-mails land as .eml files in `${dataDir}/mail`, read back with `outbox`.
 */

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });

/** The portal must be built: the server serves apps/web/dist at `/`. */
export const ensureWebBuilt = () => {
  if (process.env.CROWN_E2E_SKIP_BUILD === "1" && existsSync(path.join(repoRoot, "apps/web/dist/index.html"))) return;
  if (existsSync(path.join(repoRoot, "apps/web/dist/index.html")) && process.env.CROWN_E2E_REBUILD !== "1") return;
  // The root build: both apps, with the brotli and gzip copies the server sends (crown build).
  const r = spawnSync("pnpm", ["run", "build"], { cwd: repoRoot, stdio: "inherit" });
  if (r.status !== 0) throw new Error("Building apps/web failed");
};

export interface CrownServer {
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  readonly log: () => string;
  readonly outbox: () => Promise<OutboxMessage[]>;
  /** Waits for the newest e-mail to `to` whose text has a link under `pathPrefix`, and answers that link. */
  readonly waitForLink: (to: string, pathPrefix: string, after?: number) => Promise<string>;
  /** A demo account's password, made for this data directory and kept in its demo-accounts.json (ADR 24). */
  readonly password: (email: string) => string;
  readonly stop: () => Promise<void>;
}

export const startCrown = async (env: Record<string, string> = {}): Promise<CrownServer> => {
  ensureWebBuilt();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "crown-e2e-"));
  const url = `http://localhost:${port}`;
  let output = "";
  const child: ChildProcess = spawn(...crownCommand(["start"]), {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), CROWN_DATA_DIR: dataDir, PUBLIC_URL: url, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", (d) => (output += String(d)));
  child.stderr?.on("data", (d) => (output += String(d)));

  // From sources, tsx compiles the server on start: minutes when several suites share the two cores (CROWN_E2E_START_MS raises the wait).
  const deadline = Date.now() + Number(process.env.CROWN_E2E_START_MS ?? 240_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`crown start exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`crown start did not become ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 300));
  }

  const outbox = () => readOutbox(dataDir);
  const waitForLink = async (to: string, pathPrefix: string, after = 0): Promise<string> => {
    const until = Date.now() + 20_000;
    for (;;) {
      const mails = (await outbox()).slice(after).filter((m) => m.to.toLowerCase().includes(to.toLowerCase()));
      for (const m of mails.reverse()) {
        const link = findLink(m.text, pathPrefix) ?? findLink(m.html.replace(/&amp;/g, "&"), pathPrefix);
        if (link) return link;
      }
      if (Date.now() > until) throw new Error(`No e-mail to ${to} with a ${pathPrefix} link`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((r) => child.once("exit", r));
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        child.kill("SIGTERM");
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const password = (email: string) => {
    const saved = JSON.parse(readFileSync(path.join(dataDir, "demo-accounts.json"), "utf8")) as Array<{ email: string; password: string }>;
    const found = saved.find((a) => a.email === email);
    if (!found) throw new Error(`${email} is not a demo account`);
    return found.password;
  };

  return { url, port, dataDir, log: () => output, outbox, waitForLink, password, stop };
};

/** Demo accounts the server seeds on first start; their passwords: `server.password(email)`. */
export const DEMO = {
  parent: "parent@demo.crown",
  physician: "physician@demo.crown",
  staff: "nurse@demo.crown",
  admin: "admin@demo.crown",
} as const;
