import { BlobStore } from "@crown/core";
import { Effect, Option } from "effect";
import { describe, expect, it } from "vitest";
import { blobStoreContract } from "./contract.ts";
import { ensureBucket, makeS3BlobStore, makeS3Client } from "./s3.ts";
import { startS3rver } from "./s3rver.ts";
import { s3SettingsFromEnv, storageLayerFromEnv } from "./storage.ts";

blobStoreContract("S3 (s3rver)", async () => {
  const server = await startS3rver();
  const client = makeS3Client({ ...server, bucket: "crown-test" });
  await ensureBucket(client, "crown-test");
  return { store: makeS3BlobStore(client, "crown-test"), teardown: server.stop };
});

describe("S3 layer (s3rver)", () => {
  it("storageLayerFromEnv picks S3 from the environment and creates the bucket", async () => {
    const server = await startS3rver();
    try {
      const env = { S3_ENDPOINT: server.endpoint, S3_ACCESS_KEY: server.accessKey, S3_SECRET_KEY: server.secretKey, S3_BUCKET: "made-by-layer" };
      await Effect.runPromise(
        Effect.provide(
          Effect.gen(function* () {
            const store = yield* BlobStore;
            yield* store.put("a/b.txt", new TextEncoder().encode("hello"), "text/plain");
            const blob = Option.getOrThrow(yield* store.get("a/b.txt"));
            expect(blob.contentType).toBe("text/plain");
            expect(blob.size).toBe(5);
          }),
          storageLayerFromEnv({ dataDir: "/nonexistent" }, env),
        ),
      );
      expect(await makeS3Client({ ...server, bucket: "made-by-layer" }).bucketExists("made-by-layer")).toBe(true);
    } finally {
      await server.stop();
    }
  });

  it("refuses half-configured S3 settings", () => {
    expect(() => s3SettingsFromEnv({ S3_ENDPOINT: "http://127.0.0.1:9000", S3_BUCKET: "b" })).toThrow(/S3_ACCESS_KEY, S3_SECRET_KEY/);
    expect(s3SettingsFromEnv({})).toBeUndefined();
  });
});

// A real MinIO (or S3), only when configured: S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_BUCKET.
const real = s3SettingsFromEnv();
blobStoreContract(
  "S3 (S3_ENDPOINT)",
  async () => {
    const settings = real!;
    const client = makeS3Client(settings);
    await ensureBucket(client, settings.bucket, settings.region);
    return { store: makeS3BlobStore(client, settings.bucket), teardown: async () => {} };
  },
  { skip: !real },
);
