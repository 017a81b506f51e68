import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrations } from "@crown/db";
import { createTestDatabase, postgresServerUrl, type TestDatabase } from "@crown/db/testing";
import { startS3rver } from "@crown/storage/s3rver";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "../e2e/helpers/server.ts";
import { type CrownProcess, processApi, repoRoot, stopCrown, waitUntil } from "./crown-processes.ts";
import { finalizedPhotoReport } from "./report-fixtures.ts";

/**
 * The release folder as an operator (or the image) runs it (issue 42, items 1 and 2): copied out of the
 * checkout into an empty directory, started with `node` alone (PATH holds node and ffmpeg, nothing else;
 * no pnpm, tsx or TypeScript to reach for), on PostgreSQL and an S3-protocol store, with the API and the
 * job worker as separate processes as in docker-compose.yml. It serves /readyz, the portal, the kiosk and
 * the API; the worker measures a photo with the model and the reviewer's publish renders the PDF, so the
 * native dependencies (onnxruntime-node, sharp, argon2) and the PDF renderer load from its node_modules.
 */

const adminUrl = await postgresServerUrl();
const PASSWORD = "Sunny-day-42";

/** `node crown.mjs <args>` in `cwd`, with exactly `env` (no inherited variables), in its own process group. */
const spawnRelease = (cwd: string, args: string[], env: Record<string, string>, dataDir: string): CrownProcess => {
  let output = "";
  const child: ChildProcess = spawn("node", ["crown.mjs", ...args], { cwd, env: { ...env, CROWN_DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout?.on("data", (d) => (output += String(d)));
  child.stderr?.on("data", (d) => (output += String(d)));
  return { child, output: () => output, dataDir };
};

describe.skipIf(adminUrl === null)("the release folder, copied out and started with plain node", () => {
  const work = mkdtempSync(path.join(tmpdir(), "crown-release-"));
  const release = path.join(work, "crown");
  const bin = path.join(work, "bin");
  let database: TestDatabase;
  let s3: Awaited<ReturnType<typeof startS3rver>> & { bucket: string };
  let server: CrownProcess | undefined;
  let worker: CrownProcess | undefined;
  let url = "";
  let env: Record<string, string> = {};
  const { api, signIn } = processApi(() => url, PASSWORD);

  beforeAll(async () => {
    // Up to date in `pnpm test` (it builds first): a hash check.
    const built = spawnSync("pnpm", ["run", "build"], { cwd: repoRoot, encoding: "utf8" });
    if (built.status !== 0) throw new Error(`pnpm run build failed:\n${built.stdout}\n${built.stderr}`);
    // Hard links: the copy is instant and the release is only read.
    const copied = spawnSync("cp", ["-al", path.join(repoRoot, "dist/release"), release]);
    if (copied.status !== 0) throw new Error(`cp -al failed: ${String(copied.stderr)}`);
    mkdirSync(bin);
    symlinkSync(process.execPath, path.join(bin, "node"));
    const ffmpeg = spawnSync("sh", ["-c", "command -v ffmpeg"], { encoding: "utf8" }).stdout.trim();
    if (ffmpeg) symlinkSync(ffmpeg, path.join(bin, "ffmpeg"));

    database = await createTestDatabase("postgres");
    s3 = { ...(await startS3rver()), bucket: `release-${randomBytes(4).toString("hex")}` };
    url = `http://127.0.0.1:${await freePort()}`;
    env = {
      PATH: bin,
      HOME: work,
      DATABASE_URL: database.url!,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_BUCKET: s3.bucket,
      CROWN_SECRET: `release-secret-${randomBytes(16).toString("hex")}`,
      PUBLIC_URL: url,
      PORT: new URL(url).port,
    };
  }, 300_000);

  afterAll(async () => {
    await Promise.all([stopCrown(server), stopCrown(worker)]);
    await database?.drop();
    await s3?.stop();
    rmSync(work, { recursive: true, force: true });
  }, 60_000);

  test("holds no TypeScript and no development tools", () => {
    const modules = readdirSync(path.join(release, "node_modules"));
    for (const tool of ["tsx", "typescript", "vitest", "vite", "esbuild", "playwright", "testcontainers", "s3rver", "onnxruntime-web"]) expect(modules, tool).not.toContain(tool);
    expect(existsSync(path.join(release, "node_modules/@crown"))).toBe(false);
    const sources = spawnSync("find", [release, "-name", "*.ts", "-not", "-name", "*.d.ts", "-not", "-path", "*/node_modules/*"], { encoding: "utf8" }).stdout.trim();
    expect(sources).toBe("");
  });

  test("migrates, creates accounts, serves /readyz, the portal, the kiosk and the API; its worker measures a photo and the publish renders the PDF", async () => {
    const cliData = mkdtempSync(path.join(work, "cli-"));
    const cli = (args: string[]) => spawnSync("node", ["crown.mjs", ...args], { cwd: release, env: { ...env, CROWN_DATA_DIR: cliData }, encoding: "utf8" });
    const migrated = cli(["migrate"]);
    expect(migrated.status, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain("Database (postgres) is at the latest migration.");
    // A roll back's first step (docs/OPERATIONS.md): the newest migration reverted by its own `down`, then applied again.
    const names = Object.keys(migrations);
    const listed = cli(["migrate", "--list"]);
    expect(listed.stdout.trim().split("\n").map((line) => line.trim().split(/\s+/).at(-1))).toEqual(names);
    expect(listed.stdout).not.toContain("pending");
    const reverted = cli(["migrate", "--to", names.at(-2)!]);
    expect(reverted.status, reverted.stderr).toBe(0);
    expect(reverted.stdout).toContain(`reverted ${names.at(-1)}`);
    expect(cli(["migrate", "--list"]).stdout).toMatch(new RegExp(`pending\\s+${names.at(-1)}`));
    expect(cli(["migrate"]).status).toBe(0);
    for (const [role, email] of [
      ["parent", "parent@release.test"],
      ["reviewer", "reviewer@release.test"],
    ] as const) {
      const created = cli(["user:create", "--role", role, "--email", email, "--password", PASSWORD]);
      expect(created.status, created.stderr).toBe(0);
    }
    expect(cli(["build"]).stderr).toContain("This is a release folder");

    server = spawnRelease(release, ["start"], { ...env, CROWN_WORKER: "off" }, mkdtempSync(path.join(work, "server-")));
    await waitUntil("ready", server, async () => (await fetch(`${url}/readyz`).catch(() => null))?.ok === true, 180_000);
    worker = spawnRelease(release, ["worker"], env, mkdtempSync(path.join(work, "worker-")));

    const portal = await fetch(`${url}/`, { headers: { "accept-encoding": "br" } });
    expect(portal.status).toBe(200);
    expect(portal.headers.get("content-encoding")).toBe("br");
    expect(await portal.text()).toContain('<div id="root"></div>');
    const kiosk = await fetch(`${url}/kiosk/`);
    expect(kiosk.status).toBe(200);
    expect(await kiosk.text()).toContain("/kiosk/assets/");
    expect((await fetch(`${url}/models/head-contour.onnx`)).status).toBe(200);
    expect((await fetch(`${url}/ort/ort-wasm-simd-threaded.wasm`)).status).toBe(200);
    expect((await fetch(`${url}/api/v1/en/config`)).status).toBe(200);

    const parentToken = await signIn("parent@release.test");
    const reviewerToken = await signIn("reviewer@release.test");
    const reportId = await finalizedPhotoReport(database.db, api, "parent@release.test", parentToken);
    const status = async () => (await api("GET", `/report/${reportId}`, parentToken)).json.results.status as string;
    await waitUntil("the worker's analysis", worker, async () => (await status()) === "analyzed", 180_000);
    expect(worker.output()).toMatch(/"msg":"job done".*"name":"analyze-report"/);
    const detail = await api("GET", `/review/report/${reportId}`, reviewerToken);
    const photo = detail.json.results.attachments[0];
    expect(photo.measurement?.ci).toEqual(expect.any(Number));
    // A drawn head may fall short of the model's quality bar: the reviewer's word decides.
    expect((await api("POST", `/review/report/${reportId}/decision`, reviewerToken, { attachment_identifier: photo.identifier, decision: "accept" })).status).toBe(200);
    const published = await api("POST", `/review/report/${reportId}/publish`, reviewerToken, {});
    expect(published.status, JSON.stringify(published.json)).toBe(200);
    const pdf = await fetch(`${url}/api/v1/en/report/${reportId}/parent-download`, { headers: { authorization: `Bearer ${parentToken}` } });
    expect(pdf.status).toBe(200);
    expect(new TextDecoder().decode(new Uint8Array(await pdf.arrayBuffer()).subarray(0, 5))).toBe("%PDF-");
    // Nothing went wrong in either process (a missing module or asset would show here).
    for (const p of [server, worker]) expect(p.output()).not.toMatch(/"level":"error"|ERR_MODULE_NOT_FOUND|Cannot find/);
  }, 400_000);
});
