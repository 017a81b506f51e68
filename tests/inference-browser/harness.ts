// Builds the test page with esbuild and serves it, the model, the samples and onnxruntime-web's wasm
// files from one local origin: the same layout the app uses (/ort/ served by Crown, never a CDN).
import { copyFileSync, createReadStream, existsSync, mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ortWasmDir } from "../../adapters/inference/src/node.ts";
import { CHROMIUM as BASE } from "../chromium.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The part of esbuild's API used here (its types are not a dependency of this package). */
interface Esbuild {
  build(options: Record<string, unknown>): Promise<unknown>;
}

/** esbuild ships with tsx (a root dev dependency); resolve it from there. */
const loadEsbuild = (): Esbuild => {
  const tsx = realpathSync(join(ROOT, "node_modules/tsx/package.json"));
  return createRequire(tsx)("esbuild");
};

export const buildPage = async (): Promise<string> => {
  const out = mkdtempSync(join(tmpdir(), "crown-inference-page-"));
  const esbuild = loadEsbuild();
  await esbuild.build({
    entryPoints: {
      main: join(ROOT, "tests/inference-browser/page/main.ts"),
      worker: join(ROOT, "adapters/inference/src/worker.ts"),
    },
    outdir: out,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
    absWorkingDir: ROOT,
  });
  copyFileSync(join(ROOT, "tests/inference-browser/page/index.html"), join(out, "index.html"));
  return out;
};

const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".onnx": "application/octet-stream",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
};

export interface PageServer {
  readonly origin: string;
  close(): Promise<void>;
}

/** Serve `mounts` (URL prefix → directory) on 127.0.0.1, cross-origin isolated like the app may be. */
export const servePage = async (mounts: Record<string, string>): Promise<PageServer> => {
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    const prefix = Object.keys(mounts).sort((a, b) => b.length - a.length).find((p) => path.startsWith(p));
    const base = prefix === undefined ? undefined : mounts[prefix];
    // resolved, so a relative mount (CROWN_MODEL=models/...) passes the containment check below
    const file = base === undefined ? undefined : resolve(base, normalize(path.slice(prefix!.length) || "index.html").replace(/^[/\\]+/, ""));
    if (!file || !file.startsWith(resolve(base!)) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end("not found");
      return;
    }
    response.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-embedder-policy": "require-corp",
      "cache-control": "no-store",
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("The test server has no port");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
};

/** Build and serve the page with the model at /model/, samples at /sample/ and the wasm at /ort/. */
export const startInferencePage = async (modelFile: string, samplesDir: string | null) => {
  const page = await buildPage();
  const server = await servePage({
    "/ort/": ortWasmDir(),
    "/model/": dirname(modelFile),
    ...(samplesDir ? { "/sample/": samplesDir } : {}),
    "/": page,
  });
  return {
    origin: server.origin,
    async close() {
      await server.close();
      rmSync(page, { recursive: true, force: true });
    },
  };
};

/** The suites' Chromium in the new headless mode. */
export const CHROMIUM = { ...BASE, args: [...BASE.args, "--headless=new"] };
