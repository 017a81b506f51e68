import { createReadStream, existsSync, statSync } from "node:fs";
import { basename, dirname, extname, join, relative } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Readable } from "node:stream";
import type { Hono } from "hono";
import type { Env } from "@crown/http";
import { ortWasmDir } from "@crown/inference/node";
import { DEFAULT_MODEL_PATH } from "./paths.ts";

/**
 * What the browser needs to run the head-contour model itself (capture page, kiosk): the model and
 * its card at /models/, onnxruntime-web's wasm and loader at /ort/, both from this server, never a CDN.
 */
const TYPES: Record<string, string> = { ".wasm": "application/wasm", ".mjs": "text/javascript; charset=utf-8", ".onnx": "application/octet-stream", ".json": "application/json; charset=utf-8" };

const sendFile = (file: string) => {
  const size = statSync(file).size;
  const body = Readable.toWeb(createReadStream(file)) as unknown as ReadableStream<Uint8Array>;
  return new Response(body, {
    status: 200,
    headers: { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "content-length": String(size), "cache-control": "public, max-age=3600" },
  });
};

/** Vite names what it emits under assets/ by content hash, so a file there never changes: cache it for a year. */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[\w-]{8,}\.\w+(\.(br|gz))?$/;

/** Cache-Control for a file of a built app: hashed assets forever; the HTML that names them, and anything unhashed, checked every time. */
export const staticCacheControl = (file: string): string => (HASHED_ASSET.test(file) ? "public, max-age=31536000, immutable" : "no-cache");

export const mountModelAssets = (app: Hono<Env>, modelPath = process.env.CROWN_MODEL ?? DEFAULT_MODEL_PATH, builtOrtDir?: string) => {
  const files: Record<string, string> = {
    "/models/head-contour.onnx": modelPath,
    "/models/head-contour.json": join(dirname(modelPath), "model.json"),
  };
  for (const [route, file] of Object.entries(files)) {
    app.get(route, (c) => (existsSync(file) ? sendFile(file) : c.json({ message: "The head-contour model is not installed on this server." }, 404)));
  }
  let ortDir: string | null = null;
  try {
    ortDir = ortWasmDir();
  } catch {
    ortDir = null;
  }
  // `crown build` keeps a copy of the runtime with its brotli and gzip forms in the portal's build.
  if (builtOrtDir && existsSync(builtOrtDir)) {
    app.get("/ort/:file", serveStatic({ root: relative(process.cwd(), builtOrtDir) || ".", precompressed: true, rewriteRequestPath: (p) => p.replace(/^\/ort/, ""), onFound: (_file, c) => { c.header("cache-control", "public, max-age=3600"); } }));
  }
  app.get("/ort/:file", (c) => {
    const name = basename(c.req.param("file"));
    const file = ortDir ? join(ortDir, name) : null;
    if (!file || !/^ort-wasm[\w.-]*\.(wasm|mjs)$/.test(name) || !existsSync(file)) return c.json({ message: "Not found" }, 404);
    return sendFile(file);
  });
};
