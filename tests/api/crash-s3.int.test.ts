import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type RawBuilder, sql } from "kysely";
import { createTestDatabase, postgresServerUrl, type TestDatabase } from "@crown/db/testing";
import { makeS3Client, s3SettingsFromEnv } from "@crown/storage";
import { startS3rver } from "@crown/storage/s3rver";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "../e2e/helpers/server.ts";
import { babyOf, createUser, startCrownOn, uploadThatNeverEnds } from "./crash-fixtures.ts";
import { type CrownProcess, killCrown, stopCrown, waitUntil, processApi } from "./crown-processes.ts";
import { headPhoto } from "./report-fixtures.ts";

/**
 * kill -9 of a real `crown start` storing its files in S3 (s3rver, or the MinIO of S3_ENDPOINT) while an
 * upload's body is still arriving, two whole files already stored: after a restart, within 2 minutes,
 * no object is left that no attachment names and nothing is pending (ADR 0051). There is no listing
 * behind the sweep: the pending ledger names the keys.
 */

const adminUrl = await postgresServerUrl();
const PASSWORD = "Sunny-day-42";
const SECRET = `crash-s3-secret-${randomBytes(8).toString("hex")}`;
const RECOVERY_BUDGET_MS = 120_000;
const TIMINGS = { CROWN_LEASE_SECONDS: "5", CROWN_RECOVERY_SECONDS: "3" };

const objectKeys = (client: ReturnType<typeof makeS3Client>, bucket: string) =>
  new Promise<string[]>((resolve, reject) => {
    const keys: string[] = [];
    const stream = client.listObjectsV2(bucket, "", true);
    stream.on("data", (o: { name?: string }) => o.name && keys.push(o.name));
    stream.on("end", () => resolve(keys));
    stream.on("error", reject);
  });

describe.skipIf(adminUrl === null)("kill -9 during an upload to S3, then restart", () => {
  let database: TestDatabase;
  let server: CrownProcess | undefined;
  let s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; stop: () => Promise<void> };
  const dataDir = mkdtempSync(path.join(tmpdir(), "crown-crash-s3-"));
  let url = "";
  let port = 0;
  const env = () => ({ DATABASE_URL: database.url!, CROWN_SECRET: SECRET, S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: s3.bucket });

  const start = async () => {
    server = await startCrownOn(port, { ...env(), ...TIMINGS }, dataDir);
  };
  const { api, signIn } = processApi(() => url, PASSWORD);

  beforeAll(async () => {
    const minio = s3SettingsFromEnv();
    const bucket = `crash-${randomBytes(4).toString("hex")}`;
    s3 = minio ? { ...minio, bucket, stop: async () => undefined } : { ...(await startS3rver()), bucket };
    database = await createTestDatabase("postgres");
    createUser(env(), dataDir, "parent", "parent@crash-s3.test", PASSWORD);
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    await start();
  }, 240_000);

  afterAll(async () => {
    await stopCrown(server);
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
    await s3?.stop();
  }, 60_000);

  test("the whole files of the cut upload are removed from the bucket; recorded ones stay", async () => {
    const client = makeS3Client(s3);
    const count = async (query: RawBuilder<{ n: number }>) => Number((await query.execute(database.db)).rows[0]!.n);
    let token = await signIn("parent@crash-s3.test");
    const babyId = await babyOf(database.db, "parent@crash-s3.test");
    const prepare = async () => (await api("POST", "/report/prepare", token, { baby_identifier: babyId, analysis_type: "head_ci_cvai_analysis" })).json.results.report_identifier as string;

    // A recorded upload, which must survive.
    const recorded = await prepare();
    const form = new FormData();
    form.append("report_identifier", recorded);
    form.append("attachments[]", new Blob([(await headPhoto({ rx: 150, ry: 190 })) as Uint8Array<ArrayBuffer>], { type: "image/jpeg" }), "kept.jpg");
    expect((await api("POST", "/report/upload", token, form)).status).toBe(200);

    // The cut one: two whole photos stored, the rest never comes.
    const uploading = await prepare();
    const boundary = "----crash-s3";
    const part = async (name: string, rx: number) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="attachments[]"; filename="${name}"\r\nContent-Type: image/jpeg\r\n\r\n`), await headPhoto({ rx, ry: 210 }), Buffer.from("\r\n")]);
    const head = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="report_identifier"\r\n\r\n${uploading}\r\n`), await part("a.jpg", 170), await part("b.jpg", 175), Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="attachments[]"; filename="c.jpg"\r\n\r\n`)]);
    const pendingUpload = uploadThatNeverEnds(url, token, boundary, new Uint8Array(head));

    const named = async () => new Set((await sql<{ blob_key: string }>`select blob_key from attachments`.execute(database.db)).rows.map((r) => r.blob_key));
    const unnamedObjects = async () => {
      const names = await named();
      return (await objectKeys(client, s3.bucket)).filter((k) => k.startsWith("attachments/") && !names.has(k));
    };
    await waitUntil("two whole files of the cut upload in the bucket", server!, async () => (await unnamedObjects()).length === 2, 60_000);
    expect(await count(sql<{ n: number }>`select count(*)::int as n from pending_blobs`)).toBe(2);

    await killCrown(server!);
    await pendingUpload;
    expect(await unnamedObjects()).toHaveLength(2);

    const restarted = Date.now();
    await start();
    token = await signIn("parent@crash-s3.test");
    await waitUntil("no object that no attachment names, nothing pending", server!, async () => (await unnamedObjects()).length === 0 && (await count(sql<{ n: number }>`select count(*)::int as n from pending_blobs`)) === 0, RECOVERY_BUDGET_MS);
    // The figure the issue asks for: restart to everything recovered (start-up included).
    console.log(`recovered ${Date.now() - restarted} ms after the restart (budget ${RECOVERY_BUDGET_MS} ms)`);
    expect(Date.now() - restarted).toBeLessThan(RECOVERY_BUDGET_MS);

    const kept = [...(await named())];
    expect(kept).toHaveLength(1);
    expect(await objectKeys(client, s3.bucket)).toContain(kept[0]);
    const status = await api("GET", `/report/${uploading}`, token);
    expect(status.status).toBe(200);
    expect(status.json.results).toMatchObject({ status: "draft", attachments: [] });
  }, 360_000);
});
