import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Effect } from "effect";
import { sql } from "kysely";
import { BlobStore } from "@crown/core";
import { discardBlobs, putPending } from "@crown/core/shared/pending-blobs";
import { sweepAbandonedBlobs } from "../../apps/server/src/recovery.ts";
import { headPhoto, type ReportServer, startReportServer } from "./report-fixtures.ts";

/** The blob files under the data directory (local storage), temporary ones included. */
const blobFiles = async (dataDir: string): Promise<string[]> => {
  const all = await fs.readdir(dataDir, { recursive: true, withFileTypes: true }).catch(() => []);
  return all.filter((e) => e.isFile() && /attachments/.test(path.join(e.parentPath ?? "", e.name)) && !e.name.endsWith(".meta.json")).map((e) => e.name);
};

const BOUNDARY = "----crown-upload-test";
const partOf = (name: string, value: string | { fileName: string; bytes: Uint8Array }) => {
  const head =
    typeof value === "string"
      ? `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
      : `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  if (typeof value === "string") return Buffer.from(head);
  return Buffer.concat([Buffer.from(head), value.bytes, Buffer.from("\r\n")]);
};

/** A request body that sends `bytes` then either ends (a truncated form) or fails (a cut connection). */
const bodyEndingAt = (bytes: Buffer, how: "truncated" | "cut") =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(bytes));
      if (how === "truncated") controller.close();
      else setTimeout(() => controller.error(new Error("socket hang up")), 20);
    },
  });

describe("upload: a refused request keeps nothing, a cut one keeps its whole files (ADR 0028)", () => {
  let s: ReportServer;
  beforeAll(async () => {
    s = await startReportServer("pglite", { worker: false });
  });
  afterAll(async () => {
    await s?.close();
  });

  const newReport = async () => {
    const parent = await s.user("parent");
    const baby = await s.baby(parent.id, null);
    const id = (await s.post("/report/prepare", { baby_identifier: baby.id, analysis_type: "head_ci_cvai_analysis" }, parent.token)).json.results.report_identifier as string;
    return { parent, id };
  };
  const audits = async (reportId: string) =>
    (await s.db.selectFrom("audit_events" as never).select(["action"] as never).where("subject_id" as never, "=", reportId as never).execute()) as Array<{ action: string }>;

  test("21 files with the identifier first: 422, no attachment, no audit of an upload, no blob; finalize still refuses", async () => {
    const { parent, id } = await newReport();
    const png = await headPhoto({ rx: 150, ry: 190 }, { format: "png" });
    const before = await blobFiles(s.dataDir);
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `p${i}.png`, bytes: new Uint8Array([...png, i, i + 1]) }));
    const r = await s.upload(parent.token, id, many, true);
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ message: "You can select upto 20 files to upload", errors: { attachments: ["You can select upto 20 files to upload"] } });
    const status = (await s.get(`/report/${id}`, parent.token)).json.results;
    expect(status).toMatchObject({ status: "draft", attachments: [], upload_cut: null });
    expect((await audits(id)).map((a) => a.action)).not.toContain("report.upload");
    expect(await blobFiles(s.dataDir)).toEqual(before);
    expect((await s.post("/report/finalize", { report_identifier: id }, parent.token)).status).toBe(422);
  });

  test("a wrong format after good files refuses the whole request", async () => {
    const { parent, id } = await newReport();
    const jpg = await headPhoto({ rx: 150, ry: 190 });
    const r = await s.upload(parent.token, id, [
      { name: "a.jpg", bytes: jpg },
      { name: "b.jpg", bytes: new TextEncoder().encode("GIF89a not a photo") },
    ]);
    expect(r.status).toBe(422);
    expect((await s.get(`/report/${id}`, parent.token)).json.results.attachments).toEqual([]);
  });

  test("a photo of more than 40 MP by its header is refused before any decoding, and keeps nothing", async () => {
    const { parent, id } = await newReport();
    // A PNG whose header says 16000 × 16000: the check reads the header only, so no pixel data is needed.
    const ihdr = Buffer.alloc(25);
    ihdr.writeUInt32BE(13, 0);
    ihdr.write("IHDR", 4, "latin1");
    ihdr.writeUInt32BE(16000, 8);
    ihdr.writeUInt32BE(16000, 12);
    ihdr.set([8, 2, 0, 0, 0], 16);
    const bomb = new Uint8Array(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, Buffer.alloc(700_000)]));
    const r = await s.upload(parent.token, id, [{ name: "ok.jpg", bytes: await headPhoto({ rx: 150, ry: 190 }) }, { name: "bomb.png", bytes: bomb }]);
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ message: "Files with only .jpg, .jpeg, .png, .mov or .mp4 formats are allowed for upload", errors: { attachments: [expect.any(String)] } });
    expect((await s.get(`/report/${id}`, parent.token)).json.results.attachments).toEqual([]);
    // 40 MP exactly is still a photo.
    const large = await headPhoto({ rx: 150, ry: 190, width: 5000, height: 8000 });
    expect((await s.upload(parent.token, id, [{ name: "large.jpg", bytes: large }])).status).toBe(200);
  });

  test("a photo is decoded once: the display copy (2048 px at most) and the thumbnail are kept and served from then on", async () => {
    const { parent, id } = await newReport();
    const up = await s.upload(parent.token, id, [{ name: "big.jpg", bytes: await headPhoto({ rx: 900, ry: 1300, width: 3000, height: 4000 }) }]);
    const a = up.json.results.attachments[0];
    const view = async () => s.get(`/report/attachment/${id}/${a.identifier}.${a.extension}`, parent.token);
    const thumb = async () => s.get(`/report/thumb/${id}/${a.identifier}.${a.extension}`, parent.token);
    const first = await view();
    expect(first.status).toBe(200);
    const meta = await sharp(Buffer.from(await first.response.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([1536, 2048]);
    expect((await thumb()).status).toBe(200);
    // With the original gone, both are still served: nothing decodes it again.
    const original = path.join(s.dataDir, "blobs", "attachments", `${a.identifier}.${a.extension}`);
    await fs.rm(original);
    expect((await view()).status).toBe(200);
    expect((await thumb()).status).toBe(200);
  });

  test("recovery removes the pending blobs of a lapsed lease, and keeps recorded ones and those of a live writer (ADR 0051)", async () => {
    const { parent, id } = await newReport();
    const up = await s.upload(parent.token, id, [{ name: "kept.jpg", bytes: await headPhoto({ rx: 150, ry: 190 }) }]);
    const a = up.json.results.attachments[0];
    const root = path.join(s.dataDir, "blobs");
    const kept = path.join(root, "attachments", `${a.identifier}.${a.extension}`);
    // A recorded upload leaves nothing pending.
    expect((await sql`select blob_key from pending_blobs where blob_key = ${`attachments/${a.identifier}.${a.extension}`}`.execute(s.db)).rows).toEqual([]);
    const write = (key: string) => s.services.run(Effect.flatMap(BlobStore, (b) => b.put(key, new TextEncoder().encode(key), "image/jpeg")));
    // Held by this (live) process, as an upload still streaming is.
    const live = "attachments/01LIVELIVELIVELIVELIVELIVE.jpg";
    await s.services.run(putPending(live, new TextEncoder().encode("streaming"), "image/jpeg"));
    // Held by a process that died: its lease was last renewed long ago.
    const dead = "attachments/01DEADDEADDEADDEADDEADDEAD.jpg";
    await write(dead);
    await sql`insert into process_leases (id, started_at, renewed_at) values ('dead-lease', now() - interval '1 hour', now() - interval '1 hour')`.execute(s.db);
    await sql`insert into pending_blobs (blob_key, lease_id) values (${dead}, 'dead-lease')`.execute(s.db);
    expect(await sweepAbandonedBlobs(s.db, s.services.run, 45)).toBe(1);
    expect(await fs.stat(path.join(root, dead)).catch(() => null)).toBeNull();
    expect((await fs.stat(path.join(root, live))).isFile()).toBe(true);
    expect((await fs.stat(kept)).isFile()).toBe(true);
    expect((await sql<{ blob_key: string }>`select blob_key from pending_blobs`.execute(s.db)).rows.map((r) => r.blob_key)).toEqual([live]);
    expect((await sql`select id from process_leases where id = 'dead-lease'`.execute(s.db)).rows).toEqual([]);
    await s.services.run(discardBlobs([live]));
  });

  for (const how of ["cut", "truncated"] as const) {
    test(`a body ${how} half-way keeps only the whole files, and the next GET says so`, async () => {
      const { parent, id } = await newReport();
      const one = await headPhoto({ rx: 150, ry: 190 });
      const two = await headPhoto({ rx: 160, ry: 200 });
      const three = await headPhoto({ rx: 170, ry: 210 });
      const before = await blobFiles(s.dataDir);
      const whole = Buffer.concat([partOf("report_identifier", id), partOf("attachments[]", { fileName: "one.jpg", bytes: one }), partOf("attachments[]", { fileName: "two.jpg", bytes: two })]);
      const half = partOf("attachments[]", { fileName: "three.jpg", bytes: three }).subarray(0, 200 + Math.floor(three.byteLength / 2));
      const response = await s.app.request("/api/v1/en/report/upload", {
        method: "POST",
        headers: { authorization: `Bearer ${parent.token}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "x-forwarded-for": "10.9.9.9" },
        body: bodyEndingAt(Buffer.concat([whole, half]), how),
        duplex: "half",
      } as RequestInit);
      expect(response.status).toBe(422);
      const body = (await response.json()) as { message: string; errors: Record<string, string[]> };
      expect(body.errors.attachments).toEqual([body.message]);
      const status = (await s.get(`/report/${id}`, parent.token)).json.results;
      expect(status.attachments.map((a: { file_name: string }) => a.file_name).sort()).toEqual(["one.jpg", "two.jpg"]);
      expect(status.attachments.every((a: { sha256: string }) => /^[0-9a-f]{64}$/.test(a.sha256))).toBe(true);
      expect(status.upload_cut).toMatchObject({ kept_files: ["one.jpg", "two.jpg"], message: body.message });
      // Two blobs more, none of the half file, no temporary file.
      const after = await blobFiles(s.dataDir);
      expect(after.filter((f) => !before.includes(f))).toHaveLength(2);
      expect(after.some((f) => f.endsWith(".tmp"))).toBe(false);
      // The next complete upload clears the note.
      expect((await s.upload(parent.token, id, [{ name: "three.jpg", bytes: three }])).status).toBe(200);
      expect((await s.get(`/report/${id}`, parent.token)).json.results.upload_cut).toBeNull();
    });
  }
});
