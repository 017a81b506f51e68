import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Kysely, type RawBuilder, sql } from "kysely";
import sharp from "sharp";
import { createTestDatabase, postgresServerUrl, type TestDatabase } from "@crown/db/testing";
import { listJobs } from "@crown/jobs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "../e2e/helpers/server.ts";
import { babyOf, createUser, startCrownOn, uploadThatNeverEnds } from "./crash-fixtures.ts";
import { type CrownProcess, killCrown, repoRoot, stopCrown, waitUntil, processApi } from "./crown-processes.ts";
import { headPhoto } from "./report-fixtures.ts";

/**
 * kill -9 of a real `crown start` (PostgreSQL, worker in the process) while six things are in
 * flight — an upload whose body is still arriving (two whole files stored, a third being written),
 * a finalize inside its transaction, an analysis, a publish whose PDF is stored but not yet
 * recorded, and a chat image and a profile photo stored but not yet named — then a restart on the same database and data directory. Within 2 minutes: no report
 * lost, half-visible or stuck, no answer a 5xx, no photo measured twice, no blob that no row names,
 * nothing pending and no temporary file (issue 16, item 1; ADR 0029, ADR 0051).
 */

const adminUrl = await postgresServerUrl();
const PASSWORD = "Sunny-day-42";
const SECRET = `crash-secret-${randomBytes(8).toString("hex")}`;
const RECOVERY_BUDGET_MS = 120_000;
// Short lease and recovery periods so the test is quick; the defaults (45 s, 30 s) stay within the budget too.
const TIMINGS = { CROWN_LEASE_SECONDS: "5", CROWN_RECOVERY_SECONDS: "3" };
const SAMPLE = path.join(repoRoot, "models/head-contour/samples/good-1-typical.jpg");

/** Every file under the blob root, as blob keys: temporary files and the type files beside each blob apart. */
const blobFiles = async (root: string) => {
  const all = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = all.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
  return { temporary: files.filter((f) => f.endsWith(".tmp")), blobs: files.filter((f) => !f.endsWith(".tmp") && !f.endsWith(".meta.json")) };
};

describe.skipIf(adminUrl === null)("kill -9 during upload, finalize, analysis and publish, then restart", () => {
  let database: TestDatabase;
  let server: CrownProcess | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), "crown-crash-"));
  const blobRoot = path.join(dataDir, "blobs");
  let url = "";
  let port = 0;

  const start = async () => {
    server = await startCrownOn(port, { DATABASE_URL: database.url!, CROWN_SECRET: SECRET, ...TIMINGS }, dataDir);
  };
  const { api, signIn } = processApi(() => url, PASSWORD);
  const user = (role: string, email: string) => createUser({ DATABASE_URL: database.url!, CROWN_SECRET: SECRET }, dataDir, role, email, PASSWORD);

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    user("parent", "parent@crash.test");
    user("reviewer", "reviewer@crash.test");
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    await start();
  }, 240_000);

  afterAll(async () => {
    await stopCrown(server);
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
  }, 60_000);

  /** Takes row locks in a transaction of its own and holds them until the returned function is called (which ends it). */
  const holdRows = async (take: (conn: Kysely<any>) => Promise<void>) => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    const done = database.db.connection().execute(async (conn) => {
      await sql`begin`.execute(conn);
      await take(conn);
      held();
      await released;
      await sql`rollback`.execute(conn);
    });
    await Promise.race([holding, done]);
    return async () => {
      release();
      await done;
    };
  };
  const count = async (query: RawBuilder<{ n: number }>) => Number((await query.execute(database.db)).rows[0]!.n);
  /** Blob keys no row names: an attachment's file, its kept copies, a published version's PDF, a chat image, a profile photo. */
  const unnamedBlobs = async () => {
    const { blobs } = await blobFiles(blobRoot);
    const attachments = new Set((await sql<{ blob_key: string; id: string }>`select blob_key, id from attachments`.execute(database.db)).rows.flatMap((r) => [r.blob_key, `derived/${r.id}.display.jpg`, `derived/${r.id}.thumbnail.jpg`]));
    const named = new Set(
      (await sql<{ blob_key: string }>`select blob_key from report_versions union all select blob_key from chat_attachments union all select photo_key from users where photo_key is not null`.execute(database.db)).rows.map((r) => r.blob_key),
    );
    return blobs.filter((key) => !attachments.has(key) && !named.has(key));
  };

  test("nothing lost, half-visible, stuck, 5xx or measured twice; no orphan blob, nothing pending, no temporary file", async () => {
    let token = await signIn("parent@crash.test");
    let reviewer = await signIn("reviewer@crash.test");
    const babyId = await babyOf(database.db, "parent@crash.test");
    const prepare = async () => (await api("POST", "/report/prepare", token, { baby_identifier: babyId, analysis_type: "head_ci_cvai_analysis" })).json.results.report_identifier as string;
    const upload = async (id: string, photos: Uint8Array[]) => {
      const form = new FormData();
      form.append("report_identifier", id);
      photos.forEach((p, i) => form.append("attachments[]", new Blob([p as Uint8Array<ArrayBuffer>], { type: "image/jpeg" }), `p${i}.jpg`));
      expect((await api("POST", "/report/upload", token, form)).status).toBe(200);
    };
    const status = async (id: string) => {
      const res = await api("GET", `/report/${id}`, token);
      expect(res.status).toBe(200);
      return res.json.results;
    };

    // To publish: one sample photo, analysed before the crash.
    const publishing = await prepare();
    await upload(publishing, [new Uint8Array(readFileSync(SAMPLE))]);
    expect((await api("POST", "/report/finalize", token, { report_identifier: publishing })).status).toBe(200);
    await waitUntil("the report to publish is analysed", server!, async () => (await status(publishing)).status === "analyzed", 90_000);
    expect(await count(sql<{ n: number }>`select (analysis->>'accepted')::int as n from reports where id = ${publishing}`)).toBeGreaterThan(0);

    // To finalize: one photo. To analyse: eight, which keep the model busy.
    const finalizing = await prepare();
    await upload(finalizing, [await headPhoto({ rx: 150, ry: 190 })]);
    const analysed = await prepare();
    await upload(analysed, await Promise.all(Array.from({ length: 8 }, (_, i) => headPhoto({ rx: 420 + i * 6, ry: 560, width: 1500, height: 1900 }))));

    // A chat image and a profile photo wait for the conversation's and the parent's rows, held here too.
    expect((await api("POST", "/chat/conversation/messages", token, { text: "Hello" })).status).toBe(201);
    const conversation = (await sql<{ id: string }>`select c.id from chat_conversations c join users u on u.id = c.user_id where u.email = 'parent@crash.test'`.execute(database.db)).rows[0]!.id;
    const imageForm = (field: string, extra: Record<string, string>) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(extra)) form.append(k, v);
      form.append(field, new Blob([readFileSync(SAMPLE)], { type: "image/jpeg" }), "head.jpg");
      return form;
    };

    // The publish and the finalize wait inside their transactions for these two reports' rows, held here.
    const releaseLocks = await holdRows(async (conn) => {
      await sql`select id from reports where id in (${publishing}, ${finalizing}) for update`.execute(conn);
      await sql`select id from chat_conversations where id = ${conversation} for update`.execute(conn);
      // The lock an UPDATE of the row takes, which still lets rows referring to the user be written.
      await sql`select id from users where email = 'parent@crash.test' for no key update`.execute(conn);
    });
    const inFlight = [
      api("POST", `/review/report/${publishing}/publish`, reviewer).catch(() => null),
      api("POST", "/report/finalize", token, { report_identifier: finalizing }).catch(() => null),
      api("POST", "/chat/conversation/messages", token, imageForm("images", { text: "A photo" })).catch(() => null),
      api("POST", "/user/profile", token, imageForm("profile_photo", { profile_photo_action: "update" })).catch(() => null),
    ];

    expect((await api("POST", "/report/finalize", token, { report_identifier: analysed })).status).toBe(200);
    await waitUntil("the analysis starts", server!, async () => (await status(analysed)).status === "analyzing", 60_000);
    // However fast the machine, the analysis must still be running at the kill: its report's row is held
    // from here on, so the worker's write of the result waits (an idle machine measured all eight photos
    // and finished before the kill).
    const releaseAnalysis = await holdRows(async (conn) => {
      await sql`select id from reports where id = ${analysed} for update`.execute(conn);
    });

    // An upload whose body is still arriving: two whole photos, then more than the head of a third (its write has begun).
    const uploading = await prepare();
    const boundary = "----crash";
    const noise = await sharp(randomBytes(600 * 600 * 3), { raw: { width: 600, height: 600, channels: 3 } }).png().toBuffer();
    expect(noise.byteLength).toBeGreaterThan(700 * 1024);
    const part = (name: string, bytes: Uint8Array) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="attachments[]"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`), bytes, Buffer.from("\r\n")]);
    const head = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="report_identifier"\r\n\r\n${uploading}\r\n`),
      part("a.jpg", await headPhoto({ rx: 170, ry: 210 })),
      part("b.jpg", await headPhoto({ rx: 175, ry: 215 })),
      part("c.png", noise).subarray(0, 680 * 1024),
    ]);
    inFlight.push(uploadThatNeverEnds(url, token, boundary, new Uint8Array(head)));

    // Everything in flight: three upload blobs, the PDF, the chat image and the photo pending; four writers waiting on their locks.
    const pending = async (prefix: string) => count(sql<{ n: number }>`select count(*)::int as n from pending_blobs where blob_key like ${`${prefix}%`}`);
    const waitingOnLocks = () => count(sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
    await waitUntil("the upload, finalize and publish in flight", server!, async () => (await pending("attachments/")) >= 3 && (await pending("reports/")) === 1 && (await waitingOnLocks()) >= 4, 90_000);
    expect((await status(analysed)).status).toBe("analyzing");

    await killCrown(server!);
    await Promise.all([releaseLocks(), releaseAnalysis()]);
    await Promise.all(inFlight);

    // What the crash left: a job active, photos half measured, blobs no row names (the cut upload's, the unrecorded PDF).
    expect((await listJobs(database.db, "analyze-report")).map((j) => j.state)).toContain("active");
    // The analysis was cut: the report is still analysing in the database, however many of its 8 photos
    // were measured before the kill (on an idle machine it can be all of them, the summary not yet written).
    expect((await sql<{ status: string }>`select status from reports where id = ${analysed}`.execute(database.db)).rows[0]?.status).toBe("analyzing");
    expect(await count(sql<{ n: number }>`select count(*)::int as n from measurements where report_id = ${analysed}`)).toBeLessThanOrEqual(8);
    expect((await unnamedBlobs()).filter((k) => k.startsWith("attachments/")).length).toBeGreaterThanOrEqual(2);
    expect((await unnamedBlobs()).filter((k) => k.startsWith("reports/"))).toHaveLength(1);
    expect((await unnamedBlobs()).filter((k) => k.startsWith("chat/") || k.startsWith("profile-photos/"))).toHaveLength(2);
    expect(await pending("chat/")).toBe(1);
    expect(await pending("profile-photos/")).toBe(1);

    const restarted = Date.now();
    await start();
    token = await signIn("parent@crash.test");
    reviewer = await signIn("reviewer@crash.test");
    const left = () => RECOVERY_BUDGET_MS - (Date.now() - restarted);
    await waitUntil("the analysis finishes after the restart", server!, async () => (await status(analysed)).status === "analyzed", left());
    await waitUntil("no orphan blob, nothing pending, no temporary file", server!, async () =>
      (await unnamedBlobs()).length === 0 && (await pending("")) === 0 && (await blobFiles(blobRoot)).temporary.length === 0, left());
    // The figure the issue asks for: restart to everything recovered (start-up included).
    console.log(`recovered ${Date.now() - restarted} ms after the restart (budget ${RECOVERY_BUDGET_MS} ms)`);
    expect(Date.now() - restarted).toBeLessThan(RECOVERY_BUDGET_MS);

    // The analysis: one measurement per photo, one analysis recorded, no job left running.
    const perPhoto = await sql<{ attachment_id: string; n: number }>`select attachment_id, count(*)::int as n from measurements where report_id = ${analysed} group by attachment_id`.execute(database.db);
    expect(perPhoto.rows).toHaveLength(8);
    expect(perPhoto.rows.every((r) => r.n === 1)).toBe(true);
    expect(await count(sql<{ n: number }>`select count(*)::int as n from audit_events where subject_id = ${analysed} and action = 'report.analyzed'`)).toBe(1);
    expect((await listJobs(database.db, "analyze-report")).filter((j) => j.state === "active")).toEqual([]);

    // The chat image and the photo never committed: no message names an image, the parent has no photo.
    expect(await count(sql<{ n: number }>`select count(*)::int as n from chat_attachments`)).toBe(0);
    expect(await count(sql<{ n: number }>`select count(*)::int as n from users where photo_key is not null`)).toBe(0);

    // The cut upload: nothing of it visible.
    expect(await status(uploading)).toMatchObject({ status: "draft", attachments: [] });

    // The finalize never committed: the report still takes files, no job waits for it, and finalizing now works.
    expect((await status(finalizing)).status).toBe("uploading");
    expect((await listJobs(database.db, "analyze-report")).filter((j) => j.payload.reportId === finalizing)).toEqual([]);
    expect((await api("POST", "/report/finalize", token, { report_identifier: finalizing })).status).toBe(200);
    await waitUntil("the finalized report is analysed", server!, async () => (await status(finalizing)).status === "analyzed", 90_000);

    // The publish never committed: no version, the report still to publish, and publishing now makes exactly one version.
    expect(await count(sql<{ n: number }>`select count(*)::int as n from report_versions where report_id = ${publishing}`)).toBe(0);
    expect((await status(publishing)).status).toMatch(/^(analyzed|in_review)$/);
    const published = await api("POST", `/review/report/${publishing}/publish`, reviewer);
    expect(published.status).toBe(200);
    const versions = await sql<{ blob_key: string }>`select blob_key from report_versions where report_id = ${publishing}`.execute(database.db);
    expect(versions.rows).toHaveLength(1);
    expect((await fs.stat(path.join(blobRoot, versions.rows[0]!.blob_key))).isFile()).toBe(true);
    expect((await status(publishing)).status).toBe("published");
    expect(await unnamedBlobs()).toEqual([]);
  }, 480_000);
});
