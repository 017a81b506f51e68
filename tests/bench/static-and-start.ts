// What a browser downloads, and how long a second `pnpm start` takes (issue 19, items 3 and 4).
// Prints the bytes Chromium transferred (brotli, as the server negotiates) for the sign-in page and for
// the Auto Capture page (its scripts, the ONNX runtime's wasm and the model), then the time from
// `pnpm start` to ready on a data directory that has started once before (the web build up to date),
// then the release folder's size and its start-up time and resident memory against the TypeScript
// sources run through tsx (`pnpm crown start`, how production ran before issue 42).
// A script rather than a vitest bench: it starts servers and a browser for minutes, past the runner's
// limits. Run with
//   pnpm bench:static              (pnpm bench:static --release: the release's figures alone)
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright";
import { fakeCameraClip, finishOnboarding, launchWithFakeCamera, signIn, signInApi } from "../e2e/helpers/capture.ts";
import { passQuizByApi } from "../e2e/helpers/flows.ts";
import { launchChromium, openTab } from "../e2e/helpers/browser.ts";
import { DEMO, freePort, repoRoot, startCrown } from "../e2e/helpers/server.ts";
import { folderBytes, RELEASE_DIR } from "../../apps/server/src/commands/build-release.ts";

/** Bytes on the wire (encoded body plus headers) of every response `page` receives while `during` runs. */
const transferred = async (page: Page, during: () => Promise<void>, idle = true) => {
  const sizes: Promise<number>[] = [];
  const onResponse = (r: import("playwright").Response) => {
    // An answer that never ends (the notifications' event stream) has no final size: it counts 0 after 5 s.
    const unfinished = new Promise<number>((resolve) => setTimeout(() => resolve(0), 5_000).unref());
    sizes.push(
      Promise.race([
        r
          .request()
          .sizes()
          .then((s) => s.responseBodySize + s.responseHeadersSize, () => 0),
        unfinished,
      ]),
    );
  };
  page.on("response", onResponse);
  await during();
  // The capture page never goes network-idle (the camera runs): the caller waits for what it needs.
  if (idle) await page.waitForLoadState("networkidle");
  page.off("response", onResponse);
  return (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
};

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/** `pnpm start` on `dataDir` until /readyz answers; the milliseconds it took. */
const timedStart = async (dataDir: string): Promise<number> => {
  const port = await freePort();
  const started = performance.now();
  const child = spawn("pnpm", ["start"], { cwd: repoRoot, env: { ...process.env, PORT: String(port), CROWN_DATA_DIR: dataDir }, stdio: "ignore", detached: true });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`pnpm start exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
      if (ok) return performance.now() - started;
      if (performance.now() - started > 180_000) throw new Error("pnpm start did not become ready in 3 minutes");
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    // Attached before the signal, and skipped when it has already gone: an exit that came first is never awaited.
    const exited = child.exitCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", r));
    if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
    await exited;
  }
};

/** Resident memory (bytes) of each process in process group `group`, from /proc. */
const groupRss = (group: number): number[] => {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The fields after the command's closing parenthesis: state, ppid, pgrp, ...
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (pgrp !== group) continue;
      const rss = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${entry}/status`, "utf8"));
      if (rss) out.push(Number(rss[1]) * 1024);
    } catch {
      // gone meanwhile
    }
  }
  return out;
};

interface StartFigures {
  readonly readyMs: number;
  /** The largest process of the group (the server itself). */
  readonly serverRss: number;
  /** Every process the command started (pnpm and tsx's wrapper besides the server, for `pnpm crown start`). */
  readonly totalRss: number;
}

/** `command` until /readyz answers, then the memory of what it started, 3 s after ready (start-up work settled). */
const startFigures = async (command: string, args: string[], dataDir: string): Promise<StartFigures> => {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(command, args, { cwd: repoRoot, env: { ...process.env, PORT: String(port), CROWN_DATA_DIR: dataDir }, stdio: "ignore", detached: true });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${command} ${args.join(" ")} exited with ${child.exitCode}`);
      if (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false)) break;
      if (performance.now() - started > 180_000) throw new Error(`${command} ${args.join(" ")} did not become ready in 3 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const readyMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, 3_000));
    const rss = groupRss(child.pid!);
    return { readyMs, serverRss: Math.max(...rss), totalRss: rss.reduce((a, b) => a + b, 0) };
  } finally {
    const exited = child.exitCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", r));
    if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
    await exited;
  }
};

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/**
 * The release folder against the sources through tsx, each started twice on its own data directory
 * (the second start is the one that counts: the embedded database and demo accounts exist), in turns.
 */
export const measureRelease = async (report: (line: string) => void = console.log) => {
  const build = spawnSync("pnpm", ["run", "build"], { cwd: repoRoot, stdio: "inherit" });
  if (build.status !== 0) throw new Error("pnpm run build failed");
  const bytes = await folderBytes(path.join(repoRoot, RELEASE_DIR));
  const modules = await folderBytes(path.join(repoRoot, RELEASE_DIR, "node_modules"));
  report(`release folder ${RELEASE_DIR}: ${mb(bytes)} (node_modules ${mb(modules)}; the checkout's node_modules hold every development tool besides)`);
  const ways = [
    { name: "release (node dist/release/crown.mjs start)", command: "node", args: [`${RELEASE_DIR}/crown.mjs`, "start"] },
    { name: "sources through tsx (pnpm crown start)", command: "pnpm", args: ["crown", "start"] },
  ];
  const figures: Record<string, StartFigures> = {};
  for (const way of ways) {
    const dataDir = mkdtempSync(path.join(tmpdir(), "crown-bench-release-"));
    try {
      await startFigures(way.command, way.args, dataDir);
      const second = await startFigures(way.command, way.args, dataDir);
      figures[way.name] = second;
      report(`${way.name}: ready in ${(second.readyMs / 1000).toFixed(2)} s, server RSS ${mb(second.serverRss)} (all processes ${mb(second.totalRss)})`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return { bytes, figures };
};

/** The bytes of the two pages and the start times (also printed by `pnpm bench:results`); each line is handed to `report` as measured. */
export const measureStaticAndStart = async (report: (line: string) => void = console.log) => {
  const build = spawnSync("pnpm", ["run", "build"], { cwd: repoRoot, stdio: "inherit" });
  if (build.status !== 0) throw new Error("pnpm run build failed");
  const server = await startCrown();
  const lines = { push: report };
  const figures = { signInBytes: 0, captureBytes: 0, firstStartMs: 0, secondStartMs: 0 };
  try {
    const browser = await launchChromium();
    const { page } = await openTab(browser, server.url);
    const signInBytes = await transferred(page, async () => {
      await page.goto("/");
      await page.getByRole("heading", { level: 1, name: "Sign In" }).waitFor();
    });
    figures.signInBytes = signInBytes;
    lines.push(`sign-in page: ${kb(signInBytes)} transferred (every response, brotli where offered)`);
    await browser.close();

    // The capture page is for a parent past the disclaimer and the quiz (else it sends them there and never loads the model).
    await finishOnboarding(server, await signInApi(server, DEMO.parent, server.password(DEMO.parent)), false);
    await passQuizByApi(server, DEMO.parent, server.password(DEMO.parent));
    const camera = await launchWithFakeCamera(fakeCameraClip());
    const tab = await openTab(camera, server.url);
    await signIn(tab.page, DEMO.parent, server.password(DEMO.parent));
    const captureBytes = await transferred(tab.page, async () => {
      await tab.page.goto("/capture?cap=1");
      // The model and the runtime load when Auto Capture starts: wait for them.
      await Promise.all([
        tab.page.waitForResponse((r) => r.url().includes("/ort/") && r.url().endsWith(".wasm"), { timeout: 120_000 }),
        tab.page.waitForResponse((r) => r.url().endsWith("/models/head-contour.onnx"), { timeout: 120_000 }),
      ]);
      await new Promise((r) => setTimeout(r, 3_000));
    }, false);
    figures.captureBytes = captureBytes;
    lines.push(`capture page (Auto Capture): ${kb(captureBytes)} transferred after sign-in`);
    await camera.close();
  } finally {
    await server.stop();
  }

  const dataDir = mkdtempSync(path.join(tmpdir(), "crown-bench-start-"));
  try {
    const first = await timedStart(dataDir);
    const second = await timedStart(dataDir);
    Object.assign(figures, { firstStartMs: first, secondStartMs: second });
    lines.push(`pnpm start to ready: first ${(first / 1000).toFixed(1)} s (fresh data dir), second ${(second / 1000).toFixed(1)} s (build up to date)`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
};

// Run as a script (`pnpm bench:static`), not when `results-load.ts` imports it.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  // `pnpm bench:static --release`: only the release's figures (no browser).
  const releaseOnly = process.argv.includes("--release");
  (releaseOnly ? Promise.resolve() : measureStaticAndStart().then(() => undefined))
    .then(() => measureRelease())
    .then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
}
