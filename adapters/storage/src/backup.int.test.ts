import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Effect, Option } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupBucket, type BucketManifest, MANIFEST, restoreBucket } from "./backup.ts";
import { ensureBucket, makeS3BlobStore, makeS3Client } from "./s3.ts";
import { startS3rver } from "./s3rver.ts";

/** The bucket backup's own promises (ADR 0140); the whole backup and restore is tests/api/backup-restore.int.test.ts. */
describe("storage:backup and storage:restore (s3rver)", () => {
  let server: Awaited<ReturnType<typeof startS3rver>>;
  let dir: string;
  const client = () => makeS3Client({ ...server, bucket: "live" });
  const put = (key: string, text: string, type: string) => Effect.runPromise(makeS3BlobStore(client(), "live").put(key, new TextEncoder().encode(text), type));

  beforeAll(async () => {
    server = await startS3rver();
    dir = await mkdtemp(path.join(tmpdir(), "crown-bucket-backup-"));
    await ensureBucket(client(), "live");
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("copies each object with its type and hash; a second run fetches only new objects; a restore gives the types back", async () => {
    await put("reports/01A/photo.jpg", "jpeg bytes", "image/jpeg");
    await put("reports/01A/Result.pdf", "pdf bytes", "application/pdf");
    expect(await backupBucket(client(), "live", dir)).toEqual({ objects: 2, bytes: 19, transferred: 2 });
    await put("reports/01B/photo.png", "png bytes", "image/png");
    expect(await backupBucket(client(), "live", dir)).toEqual({ objects: 3, bytes: 28, transferred: 1 });
    const manifest = JSON.parse(await readFile(path.join(dir, MANIFEST), "utf8")) as BucketManifest;
    expect(manifest.objects.map((o) => [o.key, o.contentType])).toEqual([
      ["reports/01A/Result.pdf", "application/pdf"],
      ["reports/01A/photo.jpg", "image/jpeg"],
      ["reports/01B/photo.png", "image/png"],
    ]);

    expect((await restoreBucket(client(), "restored", dir)).objects).toBe(3);
    const restored = await Effect.runPromise(makeS3BlobStore(client(), "restored").get("reports/01B/photo.png"));
    const blob = Option.getOrThrow(restored);
    expect(blob.contentType).toBe("image/png");
    expect(await new Response(blob.body).text()).toBe("png bytes");
  });

  it("a damaged file stops the restore before anything is written", async () => {
    await writeFile(path.join(dir, "objects/reports/01A/photo.jpg"), "JPEG BYTES");
    await expect(restoreBucket(client(), "untouched", dir)).rejects.toThrow(/does not match the manifest/);
    expect(await client().bucketExists("untouched")).toBe(false);
    await rm(path.join(dir, MANIFEST));
    await expect(restoreBucket(client(), "untouched", dir)).rejects.toThrow(/manifest.json is missing/);
  });
});
