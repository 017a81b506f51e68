import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { BlobStore } from "@crown/core";
import { Effect, Option } from "effect";
import { describe, expect, it } from "vitest";
import { blobStoreContract } from "./contract.ts";
import { localBlobRoot, makeLocalBlobStore } from "./local.ts";
import { storageLayerFromEnv } from "./storage.ts";

blobStoreContract("local files", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "crown-blobs-"));
  return { store: makeLocalBlobStore(localBlobRoot(dir)), teardown: () => rm(dir, { recursive: true, force: true }) };
});

describe("local files layout", () => {
  it("keeps blobs under <dataDir>/blobs with the type beside them and no temp files left", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "crown-blobs-"));
    try {
      const layer = storageLayerFromEnv({ dataDir: dir }, {});
      await Effect.runPromise(
        Effect.provide(
          Effect.gen(function* () {
            const store = yield* BlobStore;
            yield* store.put("captures/01J/front.jpg", new Uint8Array([9, 9]), "image/jpeg");
            const got = yield* store.get("captures/01J/front.jpg");
            expect(Option.map(got, (b) => b.contentType)).toEqual(Option.some("image/jpeg"));
          }),
          layer,
        ),
      );
      const folder = path.join(dir, "blobs", "captures", "01J");
      expect((await readdir(folder)).sort()).toEqual(["front.jpg", "front.jpg.meta.json"]);
      expect((await stat(path.join(folder, "front.jpg"))).size).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a failed stream leaves nothing behind", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "crown-blobs-"));
    try {
      const store = makeLocalBlobStore(localBlobRoot(dir));
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (!sent) {
            sent = true;
            controller.enqueue(new Uint8Array(10));
          } else controller.error(new Error("client went away"));
        },
      });
      const exit = await Effect.runPromiseExit(store.put("uploads/x.bin", body, "video/mp4"));
      expect(exit._tag).toBe("Failure");
      expect(Option.isNone(await Effect.runPromise(store.get("uploads/x.bin")))).toBe(true);
      const left = await readdir(path.join(dir, "blobs", "uploads"));
      expect(left.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
