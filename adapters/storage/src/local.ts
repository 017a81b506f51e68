import { randomBytes } from "node:crypto";
import { createWriteStream, promises as fs } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { BlobStore, type BlobStorePort, type StoredBlob } from "@crown/core";
import { Effect, Layer, Option } from "effect";
import { assertValidBlobKey, chunksOf } from "./keys.ts";

const DEFAULT_TYPE = "application/octet-stream";

interface BlobMeta {
  readonly contentType: string;
}

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === "ENOENT";

/**
 * Blobs as files under `root` (normally `${dataDir}/blobs`), each with a `<name>.meta.json` beside
 * it holding its content type. Writes go to a temporary file that is renamed into place, so a
 * reader sees the whole object or none of it.
 */
export const makeLocalBlobStore = (root: string): BlobStorePort => {
  const base = path.resolve(root);
  const locate = (key: string) => {
    assertValidBlobKey(key);
    const file = path.resolve(base, key);
    if (!file.startsWith(base + path.sep)) throw new Error("Blob key escapes the store");
    return { file, meta: `${file}.meta.json` };
  };
  const tempBeside = (file: string) =>
    path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);

  const writeAtomically = async (file: string, write: (temp: string) => Promise<void>) => {
    const temp = tempBeside(file);
    try {
      await write(temp);
      await fs.rename(temp, file);
    } catch (e) {
      await fs.rm(temp, { force: true });
      throw e;
    }
  };

  return {
    put: (key, body, contentType) =>
      Effect.promise(async () => {
        const { file, meta } = locate(key);
        await fs.mkdir(path.dirname(file), { recursive: true });
        // The type goes first: once the data file appears, its type is already there.
        const metaBody: BlobMeta = { contentType: contentType || DEFAULT_TYPE };
        await writeAtomically(meta, (temp) => fs.writeFile(temp, JSON.stringify(metaBody)));
        let size = 0;
        await writeAtomically(file, async (temp) => {
          const counted = async function* () {
            for await (const chunk of chunksOf(body)) {
              size += chunk.byteLength;
              yield chunk;
            }
          };
          await pipeline(Readable.from(counted()), createWriteStream(temp, { flags: "wx", mode: 0o600 }));
        });
        return { size };
      }),

    get: (key) =>
      Effect.promise(async (): Promise<Option.Option<StoredBlob>> => {
        const { file, meta } = locate(key);
        let handle: fs.FileHandle;
        try {
          handle = await fs.open(file, "r");
        } catch (e) {
          if (isMissing(e)) return Option.none();
          throw e;
        }
        try {
          const { size } = await handle.stat();
          let contentType = DEFAULT_TYPE;
          try {
            contentType = (JSON.parse(await fs.readFile(meta, "utf8")) as BlobMeta).contentType || DEFAULT_TYPE;
          } catch (e) {
            if (!isMissing(e)) throw e;
          }
          // Reads from the open handle, so a concurrent remove cannot cut the body short.
          const stream = handle.createReadStream({ autoClose: true });
          const body = Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>;
          return Option.some({ body, contentType, size });
        } catch (e) {
          await handle.close();
          throw e;
        }
      }),

    remove: (key) =>
      Effect.promise(async () => {
        const { file, meta } = locate(key);
        await fs.rm(file, { force: true });
        await fs.rm(meta, { force: true });
      }),
  };
};

export const localBlobRoot = (dataDir: string) => path.join(dataDir, "blobs");

export const localBlobStoreLayer = (dataDir: string): Layer.Layer<BlobStore> =>
  Layer.sync(BlobStore, () => makeLocalBlobStore(localBlobRoot(dataDir)));

/**
 * Removes the temporary files a killed process left under `root` (a write cut short before its
 * rename). A temporary file still being written is younger than `idleMs` (each chunk touches it),
 * so another process's upload is never cut. Returns how many were removed.
 */
export const sweepTemporaryFiles = async (root: string, idleMs = 60_000): Promise<number> => {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((e) => (isMissing(e) ? [] : Promise.reject(e)));
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.startsWith(".") || !entry.name.endsWith(".tmp")) continue;
    const file = path.join(entry.parentPath, entry.name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat === null || Date.now() - stat.mtimeMs < idleMs) continue;
    await fs.rm(file, { force: true });
    removed += 1;
  }
  return removed;
};
