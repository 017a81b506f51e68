import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * `crown build`: builds the web portal and the kiosk, unless what they are built from is unchanged
 * since the last build (a content hash kept next to each build), then writes a brotli and a gzip copy
 * of every compressible file so the server can send them as they are (content negotiation, no
 * compression per request). The ONNX runtime's wasm the capture pages load is copied in beside them:
 * it is most of a capture page's bytes, and compresses to about a quarter.
 */

/** What the two apps are built from: their own sources, and the workspace packages they import. */
const INPUT_DIRS = ["apps/web", "apps/kiosk", "core/src", "adapters"];
const INPUT_FILES = ["pnpm-lock.yaml", "package.json", "tsconfig.base.json"];
const SKIP_DIRS = new Set(["node_modules", "dist", ".crown-data", ".vite"]);
const APPS = [
  { name: "@crown/web", dist: "apps/web/dist" },
  { name: "@crown/kiosk", dist: "apps/kiosk/dist" },
] as const;
export const STAMP = ".build-hash";
/** The runtime files the capture pages fetch from /ort/ (see adapters/inference/src/worker.ts). */
const ORT_FILE = /^ort-wasm-simd-threaded\.(wasm|mjs)$/;
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|wasm|txt|webmanifest)$/;
/** Below this a compressed copy saves less than the header it costs. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export const walk = async (dir: string, out: string[]): Promise<string[]> => {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) await walk(full, out);
    } else if (entry.isFile()) out.push(full);
  }
  return out;
};

/** One hash over the names and contents of every input file (by default the two apps' inputs), in a stable order. */
export const sourceHash = async (root: string, inputs: { dirs: readonly string[]; files: readonly string[] } = { dirs: INPUT_DIRS, files: INPUT_FILES }): Promise<string> => {
  const files: string[] = [];
  for (const dir of inputs.dirs) await walk(path.join(root, dir), files);
  for (const file of inputs.files) files.push(path.join(root, file));
  files.sort();
  const hash = createHash("sha256");
  for (const file of files) {
    const content = await readFile(file).catch(() => null);
    if (content === null) continue;
    hash.update(path.relative(root, file)).update("\0").update(content).update("\0");
  }
  return hash.digest("hex").slice(0, 16);
};

export const readStamp = (dist: string) => readFile(path.join(dist, STAMP), "utf8").then((s) => s.trim(), () => null);

/** A vite build that has not finished in this long (a minute or two on a loaded 2-core machine) has hung: it fails, named. */
const VITE_LIMIT_MS = 15 * 60_000;

const run = (command: string, args: string[], cwd: string) =>
  new Promise<void>((resolve, reject) => {
    // The served build is production whatever the caller's NODE_ENV (a build started under vitest has "test",
    // which would bundle React's development build).
    const child = spawn(command, args, { cwd, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" }, timeout: VITE_LIMIT_MS, killSignal: "SIGKILL" });
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} ${signal ? `was stopped (${signal}) after ${VITE_LIMIT_MS / 60_000} min` : `exited with ${code}`}`)),
    );
  });

/** Brotli at its best for what a browser downloads on every cold visit; a lower level for the multi-megabyte wasm, which would otherwise take a minute. */
const brotliOptions = (size: number) => ({
  params: { [zlib.BROTLI_PARAM_QUALITY]: size > 2_000_000 ? 9 : 11, [zlib.BROTLI_PARAM_SIZE_HINT]: size },
});

export const precompress = async (dist: string): Promise<{ files: number; bytes: number; brotliBytes: number }> => {
  const files = (await walk(dist, [])).filter((f) => COMPRESSIBLE.test(f));
  let count = 0;
  let bytes = 0;
  let brotliBytes = 0;
  for (const file of files) {
    const content = await readFile(file);
    if (content.length < MIN_BYTES) continue;
    const [br, gzipped] = await Promise.all([brotli(content, brotliOptions(content.length)), gz(content, { level: 9 })]);
    await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
    count += 1;
    bytes += content.length;
    brotliBytes += br.length;
  }
  return { files: count, bytes, brotliBytes };
};

/** onnxruntime-web as the inference adapter resolves it (not through @crown/inference/node: that loads the native runtime, seconds this command does not need). */
const ortWasmDir = (root: string) => path.dirname(createRequire(path.join(root, "adapters/inference/package.json")).resolve("onnxruntime-web/ort-wasm-simd-threaded.wasm"));

const copyOrtRuntime = async (root: string, dist: string) => {
  const from = ortWasmDir(root);
  const to = path.join(dist, "ort");
  await mkdir(to, { recursive: true });
  for (const name of await readdir(from)) if (ORT_FILE.test(name)) await copyFile(path.join(from, name), path.join(to, name));
};

export interface BuildOptions {
  readonly root: string;
  readonly force?: boolean;
  readonly say?: (line: string) => void;
}

/** Builds what is out of date; returns whether anything was built. */
export const buildWeb = async ({ root, force = false, say = (l) => process.stdout.write(`${l}\n`) }: BuildOptions): Promise<boolean> => {
  const started = Date.now();
  const hash = await sourceHash(root);
  const stale = [];
  for (const app of APPS) {
    const dist = path.join(root, app.dist);
    const built = await stat(path.join(dist, "index.html")).then(() => true, () => false);
    if (force || !built || (await readStamp(dist)) !== hash) stale.push(app);
  }
  if (stale.length === 0) {
    say(`Web portal and kiosk are up to date (sources ${hash}); skipping the build.`);
    return false;
  }
  await run("pnpm", stale.flatMap((a) => ["--filter", a.name]).concat(["run", "build"]), root);
  for (const app of stale) {
    const dist = path.join(root, app.dist);
    if (app.name === "@crown/web") await copyOrtRuntime(root, dist);
    const r = await precompress(dist);
    // The stamp goes last: a build cut short is built again next time.
    await writeFile(path.join(dist, STAMP), `${hash}\n`);
    say(`${app.name}: ${r.files} files precompressed (${(r.bytes / 1e6).toFixed(1)} MB → ${(r.brotliBytes / 1e6).toFixed(1)} MB brotli).`);
  }
  say(`Built ${stale.map((a) => a.name).join(" and ")} in ${((Date.now() - started) / 1000).toFixed(1)} s (sources ${hash}).`);
  return true;
};

/**
 * Runs `build` when the file at `moduleUrl` is the one node was started with (`pnpm build` runs a
 * build file alone: the CLI's other commands load the whole server): from the repository's root,
 * `--force` to build even when the stamp is current, its message and exit code 1 when it fails.
 */
export const whenRunAlone = (moduleUrl: string, build: (options: { root: string; force: boolean }) => Promise<unknown>) => {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  const root = path.resolve(path.dirname(fileURLToPath(moduleUrl)), "../../../..");
  build({ root, force: process.argv.includes("--force") }).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
};

whenRunAlone(import.meta.url, buildWeb);
