import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { build, type Plugin } from "esbuild";
import { processIsAlive, writePgliteTemplate } from "@crown/db";
import { PGLITE_TEMPLATE } from "../paths.ts";
import { buildWeb, readStamp, sourceHash, STAMP, whenRunAlone } from "./build-web.ts";

/**
 * `pnpm build`: the web portal and kiosk (build-web.ts), then the release folder `dist/release`, which
 * runs with plain `node` (ADR 0139):
 *
 *   crown.mjs                       `node crown.mjs start | worker | migrate | user:create ...`
 *   apps/server/dist/crown.mjs      the server, worker and CLI: our TypeScript bundled into one file
 *   apps/server/dist/argon2-worker.mjs   the password hashing thread
 *   apps/web/dist, apps/kiosk/dist  the built apps with their .br and .gz copies
 *   apps/web/public/quiz/manifest.json   the quiz pool the server grades against
 *   models/head-contour/            head-contour.onnx and model.json
 *   node_modules/                   production dependencies only (pnpm deploy --prod from the lockfile)
 *
 * The migrations are modules of the bundle (adapters/db/src/migrations/index.ts imports each one), applied
 * by `crown migrate` and at start. The layout is the checkout's, so a path the server computes from its
 * own file (apps/server/src/paths.ts) resolves the same way in both. Skipped when nothing it is built
 * from changed (a content hash kept in the folder, like the web build's).
 */

export const RELEASE_DIR = "dist/release";
const BUNDLE_DIR = "apps/server/dist";

/** What the release is built from (besides the web and kiosk builds, whose own hashes are among its files). */
const RELEASE_INPUTS = {
  dirs: ["apps/server/src", "core/src", "adapters", "apps/web/public/quiz"],
  files: [
    "pnpm-lock.yaml",
    "package.json",
    "tsconfig.base.json",
    "apps/server/package.json",
    "models/head-contour/head-contour.onnx",
    "models/head-contour/model.json",
    `apps/web/dist/${STAMP}`,
    `apps/kiosk/dist/${STAMP}`,
  ],
};

/** The files the release copies as they are from the checkout. */
const COPIED = [
  "apps/web/dist",
  "apps/kiosk/dist",
  "apps/web/public/quiz/manifest.json",
  "models/head-contour/head-contour.onnx",
  "models/head-contour/model.json",
];

/**
 * How long a step of the release may take before the build fails, naming it. On a loaded 2-core machine the
 * whole release takes under a minute; a step that has not finished in twelve has hung (a CI run spent its 90
 * minutes somewhere after the web build and printed nothing: now the step says so and the build fails).
 */
const STEP_LIMIT_MS = 12 * 60_000;
/** One try of `pnpm deploy` (a few seconds here); a stalled one is stopped and tried once more. */
const DEPLOY_TRY_MS = 5 * 60_000;

/** A command stopped for outlasting its limit (as against one that failed on its own). */
export class StoppedAfter extends Error {}

export const runCommand = (command: string, args: string[], cwd: string, limitMs: number) =>
  new Promise<string>((resolve, reject) => {
    let output = "";
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: "skip" }, timeout: limitMs, killSignal: "SIGKILL" });
    child.stdout.on("data", (d) => (output += String(d)));
    child.stderr.on("data", (d) => (output += String(d)));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolve(output);
      else if (signal) reject(new StoppedAfter(`${command} ${args.join(" ")} was stopped (${signal}) after ${limitMs / 60_000} min:\n${output}`));
      else reject(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${output}`));
    });
  });

/** Runs one step of the release, failing it by name when it outlasts STEP_LIMIT_MS, and says how long it took. */
const step = async <A>(name: string, say: (line: string) => void, work: () => Promise<A>): Promise<A> => {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Release: ${name} did not finish within ${STEP_LIMIT_MS / 60_000} min.`)), STEP_LIMIT_MS);
  });
  try {
    const result = await Promise.race([work(), deadline]);
    say(`Release: ${name} (${((Date.now() - started) / 1000).toFixed(1)} s).`);
    return result;
  } finally {
    clearTimeout(timer);
  }
};

/** A bare import's package name: `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
export const packageOf = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");

/**
 * Our workspace packages are bundled; every npm package stays an import of node_modules, where pnpm put
 * it with its native addon or wasm beside it (bundling those is where bundles break).
 */
const npmPackagesExternal = (external: Set<string>): Plugin => ({
  name: "npm-packages-external",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:") || args.path.startsWith("@crown/")) return undefined;
      external.add(packageOf(args.path));
      return { path: args.path, external: true };
    });
  },
});

const bundle = async (root: string, out: string) => {
  const external = new Set<string>();
  await build({
    absWorkingDir: root,
    entryPoints: { crown: "apps/server/src/cli.ts", "argon2-worker": "adapters/crypto/src/argon2-worker.mjs" },
    outdir: path.join(out, BUNDLE_DIR),
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    // cli.ts starts tracing, then imports the rest of Crown: kept as a real dynamic import (a chunk of its
    // own), so pg and node:http are loaded after the instrumentations are in place, as from the sources.
    // Without splitting, esbuild hoists the rest's package imports above the call that starts tracing.
    splitting: true,
    // Readable stack traces (with the map, the TypeScript lines) and constructors keep their names.
    sourcemap: "linked",
    keepNames: true,
    logLevel: "warning",
    // The build commands need esbuild and the checkout: the release's CLI says so instead (cli.ts).
    plugins: [npmPackagesExternal(external), { name: "no-build-commands", setup: (b) => b.onResolve({ filter: /commands\/build-(web|release)\.ts$/ }, (a) => ({ path: a.path, external: true })) }],
    // Some CommonJS dependencies call require(); an ES module has none of its own.
    banner: { js: 'import { createRequire as __crownCreateRequire } from "node:module"; const require = __crownCreateRequire(import.meta.url);' },
  });
  return external;
};

/**
 * Production dependencies from the lockfile, laid out flat (node_modules/<name>) so the bundle finds
 * them by Node's ordinary lookup: `pnpm deploy` of the server package, offline, from the store.
 */
const deployDependencies = async (root: string, out: string, say: (line: string) => void) => {
  const staging = await mkdtemp(path.join(tmpdir(), "crown-deploy-"));
  const target = path.join(staging, "server");
  const args = ["--filter", "@crown/server", "deploy", "--prod", "--offline", "--config.inject-workspace-packages=true", "--config.node-linker=hoisted", target];
  try {
    await runCommand("pnpm", args, root, DEPLOY_TRY_MS).catch(async (error: unknown) => {
      if (!(error instanceof StoppedAfter)) throw error;
      say(`Release: pnpm deploy stalled for ${DEPLOY_TRY_MS / 60_000} min; trying once more.`);
      await rm(target, { recursive: true, force: true });
      await runCommand("pnpm", args, root, DEPLOY_TRY_MS);
    });
    await rename(path.join(target, "node_modules"), path.join(out, "node_modules")).catch(async () => {
      // Another filesystem: copy, keeping links (pnpm's .bin) as they are.
      await cp(path.join(target, "node_modules"), path.join(out, "node_modules"), { recursive: true, verbatimSymlinks: true });
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
};

const readJson = async (file: string) => JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;

/** Where Node finds `name` from a package in `dir`: its own node_modules, then each one above, up to `top`. */
const lookup = (dir: string, name: string, top: string): string | null => {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (at === top || at === path.dirname(at)) return null;
  }
};

/**
 * Removes what the bundle never loads: node_modules holds every production dependency of the workspace
 * packages, including the ones only the browser uses (onnxruntime-web: the portal's build has its own
 * copy) and our own packages' sources (bundled). Kept: the packages the bundle imports and, transitively,
 * their dependencies, optional ones and peers not marked optional. Then each native runtime keeps only this
 * platform's binaries.
 */
const prune = async (out: string, imported: Iterable<string>) => {
  const modules = path.join(out, "node_modules");
  const kept = new Set<string>();
  const visit = async (dir: string) => {
    if (kept.has(dir)) return;
    kept.add(dir);
    const manifest = await readJson(path.join(dir, "package.json"));
    // A peer its package marks optional is left out unless something else needs it (i18next would keep TypeScript).
    const optionalPeers = (manifest.peerDependenciesMeta ?? {}) as Record<string, { optional?: boolean }>;
    const peers = Object.keys((manifest.peerDependencies as Record<string, string> | undefined) ?? {}).filter((name) => optionalPeers[name]?.optional !== true);
    const names = ["dependencies", "optionalDependencies"].flatMap((field) => Object.keys((manifest[field] as Record<string, string> | undefined) ?? {})).concat(peers);
    for (const name of names) {
      const found = lookup(dir, name, out);
      if (found) await visit(found);
    }
  };
  for (const name of imported) {
    const found = lookup(out, name, out);
    if (!found) throw new Error(`The bundle imports ${name}, which is not among the server's production dependencies (add it to the package that imports it).`);
    await visit(found);
  }
  let removed = 0;
  for (const entry of await readdir(modules)) {
    if (entry.startsWith(".")) continue;
    const names = entry.startsWith("@") ? (await readdir(path.join(modules, entry))).map((n) => `${entry}/${n}`) : [entry];
    for (const name of names) {
      if (kept.has(path.join(modules, name))) continue;
      await rm(path.join(modules, name), { recursive: true, force: true });
      removed += 1;
    }
    if (entry.startsWith("@") && (await readdir(path.join(modules, entry))).length === 0) await rm(path.join(modules, entry), { recursive: true });
  }
  await rm(path.join(modules, ".bin"), { recursive: true, force: true });
  // onnxruntime-node ships every platform's library (about 290 MB); one is loaded.
  const napi = path.join(modules, "onnxruntime-node", "bin");
  for (const version of await readdir(napi).catch(() => [])) {
    for (const platform of await readdir(path.join(napi, version))) {
      for (const arch of await readdir(path.join(napi, version, platform))) {
        if (platform !== process.platform || arch !== process.arch) await rm(path.join(napi, version, platform, arch), { recursive: true, force: true });
      }
    }
  }
  return removed;
};

/** The folder's size in bytes (files only; links count as themselves). */
export const folderBytes = async (dir: string): Promise<number> => {
  let total = 0;
  for (const file of await walkAll(dir)) total += (await stat(file)).size;
  return total;
};

const walkAll = async (dir: string, out: string[] = []): Promise<string[]> => {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await walkAll(full, out);
    else if (entry.isFile()) out.push(full);
  }
  return out;
};

/** `node crown.mjs <command>` at the release's top, so operators need not know where the bundle sits. */
const LAUNCHER = `// Crown's release: node crown.mjs start | worker | migrate | user:create ... (docs/OPERATIONS.md)
// Stack traces name the TypeScript lines (apps/server/dist/crown.mjs.map).
process.setSourceMapsEnabled(true);
await import("./apps/server/dist/crown.mjs");
`;

export interface ReleaseOptions {
  readonly root: string;
  readonly force?: boolean;
  readonly say?: (line: string) => void;
}

/**
 * One build at a time in a checkout: test files that each run `pnpm run build` on changed sources would
 * otherwise empty one another's output. The lock file names its process; a dead process's lock is taken over.
 * Whoever waited finds the sources built and skips.
 */
const withBuildLock = async <A>(root: string, say: (line: string) => void, fn: () => Promise<A>): Promise<A> => {
  const lock = path.join(root, "dist", ".build.lock");
  await mkdir(path.dirname(lock), { recursive: true });
  let told = false;
  for (;;) {
    try {
      await writeFile(lock, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number.parseInt(await readFile(lock, "utf8").catch(() => ""), 10);
      if (Number.isInteger(owner) && owner > 0 && !processIsAlive(owner)) {
        await rm(lock, { force: true });
        continue;
      }
      if (!told) say(`Another build is running (process ${owner}); waiting for it.`);
      told = true;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
};

/** Builds the web apps and the release when out of date; returns whether the release was built. */
export const buildRelease = async ({ root, force = false, say = (l) => process.stdout.write(`${l}\n`) }: ReleaseOptions): Promise<boolean> =>
  withBuildLock(root, say, () => buildUnlocked({ root, force, say }));

const buildUnlocked = async ({ root, force = false, say = (l) => process.stdout.write(`${l}\n`) }: ReleaseOptions): Promise<boolean> => {
  await buildWeb({ root, force, say });
  const started = Date.now();
  const out = path.join(root, RELEASE_DIR);
  const hash = await sourceHash(root, RELEASE_INPUTS);
  if (!force && existsSync(path.join(out, "crown.mjs")) && (await readStamp(out)) === hash) {
    say(`Release ${RELEASE_DIR} is up to date (sources ${hash}); skipping the build.`);
    return false;
  }
  // Built beside and swapped in whole: a build cut short never leaves a half release where one ran.
  // Named for this process: two builds at once (two test runs) never write into one folder. What a build
  // cut short left (its process gone) is removed.
  const next = `${out}.next-${process.pid}`;
  for (const entry of await readdir(path.dirname(out)).catch(() => [] as string[])) {
    const owner = /^release\.(next|previous)-(\d+)$/.exec(entry)?.[2];
    if (owner && !processIsAlive(Number(owner))) await rm(path.join(path.dirname(out), entry), { recursive: true, force: true });
  }
  await rm(next, { recursive: true, force: true });
  await mkdir(next, { recursive: true });
  const imported = await step("bundled the server", say, () => bundle(root, next));
  await step("production dependencies deployed", say, () => deployDependencies(root, next, say));
  const removed = await step("unused packages removed", say, () => prune(next, imported));
  await step("apps and model copied", say, async () => {
    for (const item of COPIED) await cp(path.join(root, item), path.join(next, item), { recursive: true });
  });
  await writeFile(path.join(next, "crown.mjs"), LAUNCHER);
  // A new data directory starts from this migrated cluster instead of initdb (ADR 0172).
  await step("database template migrated", say, () => writePgliteTemplate(path.join(next, path.relative(root, PGLITE_TEMPLATE))));
  const version = ((await readJson(path.join(root, "apps/server/package.json"))).version as string) ?? "0.0.0";
  await writeFile(path.join(next, "package.json"), `${JSON.stringify({ name: "crown-release", version, private: true, type: "module", engines: { node: ">=20.19" }, scripts: { start: "node crown.mjs start" } }, null, 2)}\n`);
  await writeFile(path.join(next, STAMP), `${hash}\n`);
  const previous = `${out}.previous-${process.pid}`;
  await rm(previous, { recursive: true, force: true });
  if (existsSync(out)) await rename(out, previous);
  await rename(next, out);
  await rm(previous, { recursive: true, force: true });
  const bytes = await folderBytes(out);
  say(`Release ${RELEASE_DIR}: ${(bytes / 1e6).toFixed(0)} MB (${removed} unused packages left out), built in ${((Date.now() - started) / 1000).toFixed(1)} s (sources ${hash}).`);
  return true;
};

whenRunAlone(import.meta.url, buildRelease);
