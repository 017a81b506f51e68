import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { connectDatabase } from "@crown/db";
import { makeS3Client } from "@crown/storage";
import { startS3rver } from "@crown/storage/s3rver";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { postgresServerUrl } from "@crown/db/testing";
import { freePort } from "../e2e/helpers/server.ts";
import { type CrownProcess, repoRoot, stopCrown, waitUntil } from "./crown-processes.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

/**
 * Back up and restore as docs/OPERATIONS.md says (issue 42, item 5): reports with photos, some published
 * (their PDFs), one analysed, one a draft, on PostgreSQL and an S3 bucket; `pg_dump` and
 * `crown storage:backup`; then `createdb`, `pg_restore` and `crown storage:restore` into a new database and
 * a new bucket on another S3 server, and the release started on them. Every table's rows, every object
 * (bytes and Content-Type) and every report, photo and PDF as the API serves them are the same.
 */

const adminUrl = await postgresServerUrl();
const release = path.join(repoRoot, "dist/release/crown.mjs");

/** The documented command, or the test fails with what it printed. */
const sh = (command: string, args: string[], env: Record<string, string> = {}) => {
  const r = spawnSync(command, args, { env: { ...process.env, ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};

const sha256 = (bytes: ArrayBuffer) => createHash("sha256").update(Buffer.from(bytes)).digest("hex");

/** Every table's row count and a hash of its rows in a stable order: two databases with equal fingerprints hold the same data. */
const fingerprint = async (url: string) => {
  const connection = await connectDatabase({ databaseUrl: url, dataDir: tmpdir(), poolSize: 1 });
  try {
    const tables = await sql<{ name: string }>`select format('%I.%I', table_schema, table_name) as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1`.execute(connection.db);
    const out: Record<string, { rows: number; md5: string }> = {};
    for (const { name } of tables.rows) {
      const r = await sql<{ rows: number; md5: string }>`select count(*)::int as rows, md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as md5 from ${sql.raw(name)} t`.execute(connection.db);
      out[name] = r.rows[0]!;
    }
    return out;
  } finally {
    await connection.close();
  }
};

type S3 = Awaited<ReturnType<typeof startS3rver>> & { bucket: string };
const s3Env = (s3: S3) => ({ S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: s3.bucket });

/** Every object of the bucket: key, size, SHA-256 and Content-Type. */
const bucketContents = async (s3: S3) => {
  const client = makeS3Client(s3);
  const keys = await new Promise<string[]>((resolve, reject) => {
    const found: string[] = [];
    const stream = client.listObjectsV2(s3.bucket, "", true);
    stream.on("data", (o) => o.name && found.push(o.name));
    stream.on("error", reject);
    stream.on("end", () => resolve(found.sort()));
  });
  const out: Record<string, { size: number; sha256: string; type: string | undefined }> = {};
  for (const key of keys) {
    const stat = await client.statObject(s3.bucket, key);
    const chunks: Buffer[] = [];
    for await (const chunk of await client.getObject(s3.bucket, key)) chunks.push(chunk as Buffer);
    out[key] = { size: stat.size, sha256: createHash("sha256").update(Buffer.concat(chunks)).digest("hex"), type: (stat.metaData as Record<string, string>)["content-type"] };
  }
  return out;
};

/** One API call as a plain Response, on whichever server. */
type Call = (method: string, route: string, token: string, body?: unknown) => Promise<Response>;

/** What each reader sees of the reports: their JSON, every photo's bytes and type, every PDF's bytes. */
const snapshot = async (call: Call, reports: string[], tokens: { parent: string; physician: string; reviewer: string }) => {
  const json = async (r: Response) => {
    expect(r.status).toBe(200);
    return ((await r.json()) as { results: any }).results;
  };
  const file = async (r: Response) => {
    expect(r.status).toBe(200);
    return { type: r.headers.get("content-type"), sha256: sha256(await r.arrayBuffer()) };
  };
  const out: Record<string, unknown> = {
    parentResults: await json(await call("POST", "/report/parent-results", tokens.parent, { per_page: 50 })),
    physicianResults: await json(await call("POST", "/report/results?page=1", tokens.physician, { per_page: 50, type: "reviewed" })),
  };
  for (const id of reports) {
    const report = await json(await call("GET", `/report/${id}`, tokens.parent));
    const review = await json(await call("GET", `/review/report/${id}`, tokens.reviewer));
    const photos: Record<string, unknown> = {};
    for (const a of report.attachments as Array<{ identifier: string; extension: string }>) {
      photos[a.identifier] = await file(await call("GET", `/report/attachment/${id}/${a.identifier}.${a.extension}`, tokens.parent));
    }
    const published = report.status === "published";
    out[id] = {
      report,
      review,
      photos,
      parentPdf: published ? await file(await call("GET", `/report/${id}/parent-download`, tokens.parent)) : null,
      physicianPdf: published ? await file(await call("GET", `/report/${id}/download`, tokens.physician)) : null,
    };
  }
  return out;
};

describe.skipIf(adminUrl === null)("back up PostgreSQL and the bucket, restore into a new database and bucket", () => {
  const work = mkdtempSync(path.join(tmpdir(), "crown-backup-"));
  const backup = path.join(work, "backup");
  const restoredDb = `crown_restore_${randomBytes(4).toString("hex")}`;
  const restoredUrl = (() => {
    const u = new URL(adminUrl ?? "postgres://localhost/postgres");
    u.pathname = `/${restoredDb}`;
    return u.toString();
  })();
  let s: ReportServer;
  let s3a: S3;
  let s3b: S3;
  let restored: CrownProcess | undefined;

  beforeAll(async () => {
    // The release's CLI is the documented one (up to date in `pnpm test`: a hash check).
    sh("pnpm", ["run", "--dir", repoRoot, "build"]);
    s3a = { ...(await startS3rver()), bucket: "crown-live" };
    s3b = { ...(await startS3rver()), bucket: "crown-restored" };
    s = await startReportServer("postgres", { env: s3Env(s3a) });
  }, 300_000);

  afterAll(async () => {
    await stopCrown(restored);
    await s?.close();
    spawnSync("dropdb", ["--if-exists", "--force", `--maintenance-db=${adminUrl}`, restoredDb]);
    await s3a?.stop();
    await s3b?.stop();
    rmSync(work, { recursive: true, force: true });
  }, 60_000);

  test("every table, object, report, photo and PDF comes back identical", async () => {
    // ---- Reports on the live system: published (PDFs), analysed, and a draft with a photo.
    const parent = await s.user("parent", "Alex", "Rivera");
    const physician = await s.user("physician", "Grace", "Hopper");
    const reviewer = await s.user("reviewer", "Rita", "Levi");
    const reports: string[] = [];
    const prepare = async (babyId: string) => {
      const r = await s.post("/report/prepare", { baby_identifier: babyId, analysis_type: "head_ci_cvai_analysis" }, parent.token);
      expect(r.status).toBe(201);
      reports.push(r.json.results.report_identifier as string);
      return r.json.results.report_identifier as string;
    };
    const withPhotos = async (babyId: string, shapes: Array<{ rx: number; ry: number }>) => {
      const id = await prepare(babyId);
      const photos = await Promise.all(shapes.map((shape) => headPhoto(shape)));
      expect((await s.upload(parent.token, id, photos.map((bytes, i) => ({ name: `photo-${i + 1}.jpg`, bytes })))).status).toBe(200);
      return id;
    };
    const analysed = async (id: string) => {
      expect((await s.post("/report/finalize", { report_identifier: id }, parent.token)).status).toBe(200);
      await s.waitFor(parent.token, id, ["analyzed"]);
    };
    const publish = async (id: string) => {
      const detail = await s.get(`/review/report/${id}`, reviewer.token);
      for (const a of detail.json.results.attachments) {
        expect((await s.post(`/review/report/${id}/decision`, { attachment_identifier: a.identifier, decision: "accept" }, reviewer.token)).status).toBe(200);
      }
      const published = await s.post(`/review/report/${id}/publish`, {}, reviewer.token);
      expect(published.status, JSON.stringify(published.json)).toBe(200);
    };
    const mia = await s.baby(parent.id, physician.id, "Mia", "2026-07-15");
    const leo = await s.baby(parent.id, physician.id, "Leo", "2025-12-02");
    for (const [baby, shapes] of [
      [mia, [{ rx: 170, ry: 210 }, { rx: 172, ry: 210 }]],
      [leo, [{ rx: 180, ry: 205 }, { rx: 178, ry: 204 }, { rx: 181, ry: 206 }]],
    ] as const) {
      const id = await withPhotos(baby.id, [...shapes]);
      await analysed(id);
      await publish(id);
    }
    await analysed(await withPhotos(mia.id, [{ rx: 165, ry: 212 }]));
    await withPhotos(leo.id, [{ rx: 175, ry: 200 }]);
    const tokens = { parent: parent.token, physician: physician.token, reviewer: reviewer.token };
    const live: Call = async (method, route, token, body) =>
      s.app.request(`/api/v1/en${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "x-forwarded-for": "10.9.0.1", ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // Read once before the backup: the downloads mark reports read, so both sides hold the same flags.
    await snapshot(live, reports, tokens);
    // Nothing writes while the backup runs (a running system is fine too; a quiet one compares exactly).
    await s.worker?.stop();

    // ---- The backup, as docs/OPERATIONS.md says.
    const liveEnv = { DATABASE_URL: s.dbUrl, CROWN_SECRET: "backup-test-secret-0123456789", ...s3Env(s3a), CROWN_DATA_DIR: work };
    sh("mkdir", ["-p", backup]);
    sh("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${path.join(backup, "crown.dump")}`, s.dbUrl]);
    const backedUp = sh("node", [release, "storage:backup", path.join(backup, "files")], liveEnv);
    const liveRows = await fingerprint(s.dbUrl);
    const liveObjects = await bucketContents(s3a);
    expect(Object.keys(liveObjects).length).toBeGreaterThanOrEqual(9);
    expect(backedUp).toContain(`Backed up ${Object.keys(liveObjects).length} objects`);
    // Again into the same folder: nothing is fetched twice.
    expect(sh("node", [release, "storage:backup", path.join(backup, "files")], liveEnv)).toContain("(0 copied this time)");
    const expected = await snapshot(live, reports, tokens);
    // What is compared: 4 reports, 2 of them published with their PDFs, 7 photos.
    const seen = reports.map((id) => expected[id] as { parentPdf: unknown; photos: Record<string, unknown> });
    expect(seen.filter((r) => r.parentPdf !== null)).toHaveLength(2);
    expect(seen.flatMap((r) => Object.keys(r.photos))).toHaveLength(7);

    // ---- The restore into a new database and a new bucket on another S3 server.
    sh("createdb", [`--maintenance-db=${adminUrl}`, restoredDb]);
    sh("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", `--dbname=${restoredUrl}`, path.join(backup, "crown.dump")]);
    sh("node", [release, "storage:restore", path.join(backup, "files")], { ...liveEnv, DATABASE_URL: restoredUrl, ...s3Env(s3b) });
    const restoredRows = await fingerprint(restoredUrl);
    // A running process renews its row in process_leases every few seconds (adapters/storage/src/pending.ts):
    // the live side's changes after the dump; the restored side has the row as dumped.
    const renewed = new Set(["public.process_leases"]);
    expect(restoredRows["public.process_leases"]?.rows).toBe(liveRows["public.process_leases"]?.rows);
    const differing = Object.keys({ ...liveRows, ...restoredRows }).filter((t) => !renewed.has(t) && JSON.stringify(liveRows[t]) !== JSON.stringify(restoredRows[t]));
    expect(differing.map((t) => [t, liveRows[t], restoredRows[t]])).toEqual([]);
    expect(await bucketContents(s3b)).toEqual(liveObjects);

    // ---- Crown on the restored pair: the same sessions, reports, photos and PDFs.
    const port = await freePort();
    restored = startRelease({ ...liveEnv, DATABASE_URL: restoredUrl, ...s3Env(s3b), PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, CROWN_WORKER: "off" }, mkdtempSync(path.join(work, "restored-")));
    await waitUntil("restored crown ready", restored, async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.ok === true, 180_000);
    const restoredCall: Call = (method, route, token, body) =>
      fetch(`http://127.0.0.1:${port}/api/v1/en${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect(await snapshot(restoredCall, reports, tokens)).toEqual(expected);
  }, 600_000);
});

/** `node dist/release/crown.mjs start` in its own process group. */
const startRelease = (env: Record<string, string>, dataDir: string): CrownProcess => {
  let output = "";
  const child: ChildProcess = spawn("node", [release, "start"], { env: { ...process.env, ...env, CROWN_DATA_DIR: dataDir }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout?.on("data", (d) => (output += String(d)));
  child.stderr?.on("data", (d) => (output += String(d)));
  return { child, output: () => output, dataDir };
};
