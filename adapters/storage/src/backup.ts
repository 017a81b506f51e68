import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Client } from "minio";
import { assertValidBlobKey } from "./keys.ts";
import { ensureBucket } from "./s3.ts";

/**
 * A bucket's copy on disk, and back (docs/OPERATIONS.md, ADR 0140): every object as a file under
 * `<dir>/objects/<key>`, and `<dir>/manifest.json` naming each one's size, SHA-256 and Content-Type, which
 * a plain file copy (`aws s3 sync`, `mc mirror` to a disk) loses and Crown serves photos and PDFs with.
 * A backup into a folder that holds an earlier one fetches only the objects it lacks: a key is never
 * reused for other content, so one already there with its size and hash is that object.
 */

export const MANIFEST = "manifest.json";
const OBJECTS = "objects";

export interface BackedUpObject {
  readonly key: string;
  readonly size: number;
  readonly sha256: string;
  readonly contentType: string;
}

export interface BucketManifest {
  readonly format: 1;
  readonly bucket: string;
  readonly finishedAt: string;
  readonly objects: ReadonlyArray<BackedUpObject>;
}

export interface CopyReport {
  readonly objects: number;
  readonly bytes: number;
  /** Objects transferred this time (the rest were in the folder already, or in the bucket already). */
  readonly transferred: number;
}

const objectFile = (dir: string, key: string) => {
  assertValidBlobKey(key);
  return path.join(dir, OBJECTS, ...key.split("/"));
};

const readManifest = async (dir: string): Promise<BucketManifest | null> => {
  try {
    return JSON.parse(await readFile(path.join(dir, MANIFEST), "utf8")) as BucketManifest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
};

/** Streams `source` to `file` (through a .partial file, renamed when whole), returning its size and SHA-256. */
const saveHashed = async (source: NodeJS.ReadableStream, file: string) => {
  await mkdir(path.dirname(file), { recursive: true });
  const hash = createHash("sha256");
  let size = 0;
  const partial = `${file}.partial`;
  await pipeline(
    source,
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    }),
    createWriteStream(partial),
  );
  await rename(partial, file);
  return { size, sha256: hash.digest("hex") };
};

const fileSha256 = async (file: string) => {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
};

const listObjects = (client: Client, bucket: string) =>
  new Promise<Array<{ key: string; size: number }>>((resolve, reject) => {
    const found: Array<{ key: string; size: number }> = [];
    const stream = client.listObjectsV2(bucket, "", true);
    stream.on("data", (item) => {
      if (item.name) found.push({ key: item.name, size: item.size });
    });
    stream.on("error", reject);
    stream.on("end", () => resolve(found));
  });

/** Copies every object of `bucket` into `dir` (creating it), and writes the manifest last. */
export const backupBucket = async (client: Client, bucket: string, dir: string, say: (line: string) => void = () => undefined): Promise<CopyReport> => {
  const previous = new Map((await readManifest(dir))?.objects.map((o) => [o.key, o]) ?? []);
  const objects: BackedUpObject[] = [];
  let transferred = 0;
  let bytes = 0;
  for (const { key, size } of await listObjects(client, bucket)) {
    const file = objectFile(dir, key);
    const known = previous.get(key);
    const onDisk = await stat(file).then((s) => s.size, () => -1);
    if (known && known.size === size && onDisk === size) {
      objects.push(known);
    } else {
      const info = await client.statObject(bucket, key);
      const meta = info.metaData as Record<string, string | undefined>;
      const saved = await saveHashed(await client.getObject(bucket, key), file);
      objects.push({ key, size: saved.size, sha256: saved.sha256, contentType: meta["content-type"] ?? meta["Content-Type"] ?? "application/octet-stream" });
      transferred += 1;
      if (transferred % 500 === 0) say(`${transferred} objects copied...`);
    }
    bytes += size;
  }
  objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const manifest: BucketManifest = { format: 1, bucket, finishedAt: new Date().toISOString(), objects };
  // The manifest goes last, whole: a backup cut short has none newer than its files.
  await writeFile(path.join(dir, `${MANIFEST}.partial`), `${JSON.stringify(manifest, null, 1)}\n`);
  await rename(path.join(dir, `${MANIFEST}.partial`), path.join(dir, MANIFEST));
  // Objects gone from the bucket since an earlier backup into this folder are left on disk (not in the manifest).
  return { objects: objects.length, bytes, transferred };
};

/**
 * Puts every object of the manifest in `dir` into `bucket` (created if missing) with its Content-Type,
 * after checking each file's size and SHA-256 against the manifest: a damaged backup fails before it
 * writes anything.
 */
export const restoreBucket = async (client: Client, bucket: string, dir: string, say: (line: string) => void = () => undefined): Promise<CopyReport> => {
  const manifest = await readManifest(dir);
  if (!manifest) throw new Error(`${path.join(dir, MANIFEST)} is missing: not a finished bucket backup`);
  if (manifest.format !== 1) throw new Error(`${path.join(dir, MANIFEST)} has format ${String(manifest.format)}; this Crown reads format 1`);
  let bytes = 0;
  for (const object of manifest.objects) {
    const file = objectFile(dir, object.key);
    const size = await stat(file).then((s) => s.size, () => -1);
    if (size !== object.size || (await fileSha256(file)) !== object.sha256) throw new Error(`${file} does not match the manifest (size or SHA-256): the backup is damaged`);
    bytes += size;
  }
  await ensureBucket(client, bucket);
  let transferred = 0;
  for (const object of manifest.objects) {
    await client.fPutObject(bucket, object.key, objectFile(dir, object.key), { "Content-Type": object.contentType });
    transferred += 1;
    if (transferred % 500 === 0) say(`${transferred} of ${manifest.objects.length} objects restored...`);
  }
  return { objects: manifest.objects.length, bytes, transferred };
};
