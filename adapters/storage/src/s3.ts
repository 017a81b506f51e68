import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { BlobStore, type BlobStorePort, type StoredBlob } from "@crown/core";
import { Effect, Layer, Option } from "effect";
import { Client } from "minio";
import { assertValidBlobKey, chunksOf } from "./keys.ts";
import { ensureAbortIncompleteUploads } from "./lifecycle.ts";

export interface S3Settings {
  /** e.g. `http://127.0.0.1:9000` or `https://s3.eu-central-1.amazonaws.com`. */
  readonly endpoint: string;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly bucket: string;
  readonly region?: string | undefined;
  /** Path-style (`host/bucket/key`) addressing; MinIO and s3rver need it. Defaults to true. */
  readonly pathStyle?: boolean | undefined;
  /** Bytes held in memory per multipart upload part (S3's minimum, 5 MiB, by default). */
  readonly partSize?: number | undefined;
}

const DEFAULT_TYPE = "application/octet-stream";
const MIN_PART = 5 * 1024 * 1024;

export const makeS3Client = (settings: S3Settings): Client => {
  const url = new URL(settings.endpoint);
  const useSSL = url.protocol === "https:";
  return new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: settings.accessKey,
    secretKey: settings.secretKey,
    region: settings.region ?? "us-east-1",
    pathStyle: settings.pathStyle ?? true,
  });
};

const isNotFound = (e: unknown) => {
  const code = (e as { code?: string }).code;
  return code === "NotFound" || code === "NoSuchKey" || code === "NoSuchObject";
};

/** Creates the bucket when it is missing (tolerating another process creating it first). */
export const ensureBucket = async (client: Client, bucket: string, region = "us-east-1") => {
  if (await client.bucketExists(bucket)) return;
  try {
    await client.makeBucket(bucket, region);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code !== "BucketAlreadyOwnedByYou" && code !== "BucketAlreadyExists") throw e;
  }
};

/**
 * Regroups a body into parts of exactly `partSize` bytes (the last may be shorter, and an empty
 * body is one empty part), copying chunks straight into one part-sized buffer at a time.
 */
async function* partsOf(body: Uint8Array | ReadableStream<Uint8Array>, partSize: number): AsyncGenerator<Buffer> {
  let part = Buffer.allocUnsafe(partSize);
  let filled = 0;
  let yielded = false;
  for await (const chunk of chunksOf(body)) {
    let offset = 0;
    while (offset < chunk.byteLength) {
      const take = Math.min(chunk.byteLength - offset, partSize - filled);
      part.set(chunk.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === partSize) {
        yield part;
        yielded = true;
        part = Buffer.allocUnsafe(partSize);
        filled = 0;
      }
    }
  }
  if (filled > 0 || !yielded) yield part.subarray(0, filled);
}

/**
 * Blobs in an S3 bucket. minio's `putObject` with a stream of unknown length buffers parts of
 * hundreds of MB, so streamed bodies are sent here as a multipart upload of small parts: memory
 * stays near one part whatever the object's size. Bodies that fit in one part are one PUT.
 */
export const makeS3BlobStore = (client: Client, bucket: string, options: { partSize?: number | undefined } = {}): BlobStorePort => {
  const partSize = Math.max(options.partSize ?? MIN_PART, MIN_PART);

  const put = async (key: string, body: Uint8Array | ReadableStream<Uint8Array>, contentType: string) => {
    assertValidBlobKey(key);
    const type = contentType || DEFAULT_TYPE;
    const parts = partsOf(body, partSize);
    const first = await parts.next();
    // A body that ends before filling one part is a single PUT; anything larger is a multipart
    // upload that starts as soon as the first part is full.
    if (first.done || first.value.byteLength < partSize) {
      const only = first.done ? Buffer.alloc(0) : first.value;
      await client.putObject(bucket, key, only, only.byteLength, { "Content-Type": type });
      return { size: only.byteLength };
    }
    // Held in an array so it can be let go once sent; a finished part must not stay referenced.
    const pendingFirst: Buffer[] = [first.value];
    first.value = Buffer.alloc(0);

    const uploadId = await client.initiateNewMultipartUpload(bucket, key, { "Content-Type": type });
    try {
      const etags: { part: number; etag: string }[] = [];
      let size = 0;
      const upload = async (part: number, payload: Buffer) => {
        const res = await client.makeRequestAsyncOmit(
          {
            method: "PUT",
            bucketName: bucket,
            objectName: key,
            query: `partNumber=${part}&uploadId=${encodeURIComponent(uploadId)}`,
            headers: { "Content-Length": payload.byteLength, "Content-MD5": createHash("md5").update(payload).digest("base64") },
          },
          payload,
        );
        etags.push({ part, etag: String(res.headers.etag ?? "").replace(/^"|"$/g, "") });
        size += payload.byteLength;
      };
      let part = 1;
      await upload(part++, pendingFirst.pop()!);
      for await (const payload of parts) await upload(part++, payload);
      await client.completeMultipartUpload(bucket, key, uploadId, etags);
      return { size };
    } catch (e) {
      await client.abortMultipartUpload(bucket, key, uploadId).catch(() => undefined);
      throw e;
    }
  };

  return {
    put: (key, body, contentType) => Effect.promise(() => put(key, body, contentType)),

    get: (key) =>
      Effect.promise(async (): Promise<Option.Option<StoredBlob>> => {
        assertValidBlobKey(key);
        try {
          const stat = await client.statObject(bucket, key);
          const stream = await client.getObject(bucket, key);
          const meta = stat.metaData as Record<string, string | undefined>;
          return Option.some({
            body: Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>,
            contentType: meta["content-type"] ?? meta["Content-Type"] ?? DEFAULT_TYPE,
            size: stat.size,
          });
        } catch (e) {
          if (isNotFound(e)) return Option.none();
          throw e;
        }
      }),

    remove: (key) =>
      Effect.promise(async () => {
        assertValidBlobKey(key);
        try {
          await client.removeObject(bucket, key);
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
      }),
  };
};

const logLine = (line: Record<string, unknown>) => console.error(JSON.stringify(line));

/** Connects, creates the bucket if needed, has it abort incomplete multipart uploads (ADR 0065), and provides the store. */
export const s3BlobStoreLayer = (settings: S3Settings, log: (line: Record<string, unknown>) => void = logLine): Layer.Layer<BlobStore> =>
  Layer.effect(
    BlobStore,
    Effect.promise(async () => {
      const client = makeS3Client(settings);
      await ensureBucket(client, settings.bucket, settings.region ?? "us-east-1");
      await ensureAbortIncompleteUploads(client, settings.bucket, log);
      return makeS3BlobStore(client, settings.bucket, { partSize: settings.partSize });
    }),
  );
