import { PassThrough, Readable } from "node:stream";
import { BlobStore, type BlobStorePort } from "@crown/core";
import { ArchiveMaker, type ArchiveMakerPort } from "@crown/core/family-data/model";
import { type ArchiverError, ZipArchive } from "archiver";
import { Effect, Layer, Option } from "effect";

/**
 * Zip archives written straight into the blob store (issue 44's family data export): archiver
 * streams each entry into the upload as it goes, so an archive of a family's videos is never held
 * in memory or on local disk whole. Entries are added one at a time; each is counted once archiver
 * has taken it, which is the progress the portal shows.
 */
export const makeZipArchives = (blobs: BlobStorePort): ArchiveMakerPort => ({
  write: (key, entries, onEntry) =>
    Effect.gen(function* () {
      const zip = new ZipArchive({ zlib: { level: 6 } });
      const out = new PassThrough();
      let failure: Error | null = null;
      zip.on("error", (e: ArchiverError) => {
        failure = e;
        out.destroy(e);
      });
      zip.pipe(out);
      const upload = Effect.runPromise(blobs.put(key, Readable.toWeb(out) as ReadableStream<Uint8Array>, "application/zip"));
      // A failed upload must not leave archiver waiting for a reader that is gone.
      upload.catch((e: unknown) => {
        failure ??= e instanceof Error ? e : new Error(String(e));
        zip.abort();
      });
      let done = 0;
      for (const entry of entries) {
        if (failure) break;
        let source: Buffer | Readable;
        if ("bytes" in entry) source = Buffer.from(entry.bytes);
        else {
          const blob = yield* blobs.get(entry.blobKey);
          // A file the store no longer has (a PDF never made in that language) is left out.
          if (Option.isNone(blob)) {
            done += 1;
            yield* onEntry(done);
            continue;
          }
          source = Readable.fromWeb(blob.value.body as import("node:stream/web").ReadableStream<Uint8Array>);
        }
        yield* Effect.promise(
          () =>
            new Promise<void>((resolve) => {
              const finished = () => {
                zip.off("entry", finished);
                zip.off("error", finished);
                resolve();
              };
              zip.on("entry", finished);
              zip.on("error", finished);
              zip.append(source, { name: entry.path });
            }),
        );
        done += 1;
        yield* onEntry(done);
      }
      if (!failure) yield* Effect.promise(() => zip.finalize());
      const stored = yield* Effect.tryPromise(() => upload).pipe(Effect.orDie);
      if (failure) return yield* Effect.die(failure);
      return stored;
    }),
});

/** The archive maker over whichever blob store the composition chose. */
export const zipArchiveLayer = Layer.effect(ArchiveMaker, Effect.map(BlobStore, makeZipArchives));
