import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { staticCacheControl } from "../static-assets.ts";
import { precompress, sourceHash } from "./build-web.ts";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "crown-build-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("crown build", () => {
  it("writes brotli and gzip copies that decompress to the file, and none for small or binary files", async () => {
    const dist = tempDir();
    mkdirSync(path.join(dist, "assets"));
    const js = "export const greeting = 'Good afternoon';\n".repeat(200);
    writeFileSync(path.join(dist, "assets", "index-AbCdEf12.js"), js);
    writeFileSync(path.join(dist, "tiny.css"), "a{}");
    writeFileSync(path.join(dist, "photo.png"), Buffer.alloc(4096, 7));
    const result = await precompress(dist);
    expect(result.files).toBe(1);
    expect(brotliDecompressSync(readFileSync(path.join(dist, "assets", "index-AbCdEf12.js.br"))).toString()).toBe(js);
    expect(gunzipSync(readFileSync(path.join(dist, "assets", "index-AbCdEf12.js.gz"))).toString()).toBe(js);
    expect(result.brotliBytes).toBeLessThan(js.length / 10);
    expect(existsSync(path.join(dist, "tiny.css.br"))).toBe(false);
    expect(existsSync(path.join(dist, "photo.png.br"))).toBe(false);
  });

  it("hashes the apps' sources: a changed file changes the hash, a build output does not", async () => {
    const root = tempDir();
    for (const dir of ["apps/web/src", "apps/web/dist", "apps/kiosk/src", "core/src", "adapters/http/src"]) mkdirSync(path.join(root, dir), { recursive: true });
    writeFileSync(path.join(root, "apps/web/src/main.tsx"), "one");
    writeFileSync(path.join(root, "core/src/rule.ts"), "rule");
    writeFileSync(path.join(root, "pnpm-lock.yaml"), "lock");
    const first = await sourceHash(root);
    writeFileSync(path.join(root, "apps/web/dist/index.html"), "built");
    expect(await sourceHash(root)).toBe(first);
    writeFileSync(path.join(root, "core/src/rule.ts"), "rule changed");
    expect(await sourceHash(root)).not.toBe(first);
  });
});

describe("static Cache-Control", () => {
  it("caches hashed assets for a year and checks HTML and unhashed files every time", () => {
    expect(staticCacheControl("apps/web/dist/assets/index-B6LYK0a-.js")).toBe("public, max-age=31536000, immutable");
    expect(staticCacheControl("apps/web/dist/assets/index-B6LYK0a-.js.br")).toBe("public, max-age=31536000, immutable");
    expect(staticCacheControl("apps/web/dist/index.html")).toBe("no-cache");
    expect(staticCacheControl("apps/web/dist/index.html.br")).toBe("no-cache");
    expect(staticCacheControl("apps/web/dist/quiz/manifest.json")).toBe("no-cache");
  });
});
