import { createHash } from "node:crypto";
import type { BlobStorePort } from "@crown/core";
import { Effect, Exit, Option } from "effect";
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** A full garbage collection, available even when node was started without --expose-gc. */
const exposeGc = (): (() => void) => {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
};
const liveBytes = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** The behaviour every BlobStore must have; run against each implementation. */
export const blobStoreContract = (
  name: string,
  setup: () => Promise<{ store: BlobStorePort; teardown: () => Promise<void> }>,
  options: { skip?: boolean } = {},
) =>
  describe.skipIf(options.skip ?? false)(`BlobStore contract: ${name}`, () => {
    let store: BlobStorePort;
    let teardown = async () => {};
    const run = <A>(eff: Effect.Effect<A>) => Effect.runPromise(eff);
    let n = 0;
    const freshKey = (suffix = "bin") => `tests/${Date.now().toString(36)}-${process.pid}-${n++}/object.${suffix}`;

    beforeAll(async () => {
      ({ store, teardown } = await setup());
    });
    afterAll(async () => {
      await teardown();
    });

    const readAll = async (body: ReadableStream<Uint8Array>) => {
      const parts: Uint8Array[] = [];
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) parts.push(chunk);
      return Buffer.concat(parts);
    };
    const streamOf = (chunks: Uint8Array[]) =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      });

    it("round-trips bytes with size and content type", async () => {
      const key = freshKey("jpg");
      const bytes = new Uint8Array(Buffer.from("\xff\xd8\xff\xe0 not really a jpeg \u00e9", "latin1"));
      expect(await run(store.put(key, bytes, "image/jpeg"))).toEqual({ size: bytes.byteLength });
      const got = await run(store.get(key));
      expect(Option.isSome(got)).toBe(true);
      const blob = Option.getOrThrow(got);
      expect(blob.contentType).toBe("image/jpeg");
      expect(blob.size).toBe(bytes.byteLength);
      expect(new Uint8Array(await readAll(blob.body))).toEqual(bytes);
    });

    it("round-trips a stream of uneven chunks", async () => {
      const key = freshKey("mp4");
      const chunks = [1, 1000, 65536, 7, 300_000, 0, 12].map((size, i) => new Uint8Array(size).fill(i + 1));
      const expected = Buffer.concat(chunks);
      expect(await run(store.put(key, streamOf(chunks.slice()), "video/mp4"))).toEqual({ size: expected.byteLength });
      const blob = Option.getOrThrow(await run(store.get(key)));
      expect(blob.contentType).toBe("video/mp4");
      expect(blob.size).toBe(expected.byteLength);
      expect((await readAll(blob.body)).equals(expected)).toBe(true);
    });

    it("stores an empty body", async () => {
      const key = freshKey();
      expect(await run(store.put(key, new Uint8Array(), "text/plain"))).toEqual({ size: 0 });
      const blob = Option.getOrThrow(await run(store.get(key)));
      expect(blob.size).toBe(0);
      expect((await readAll(blob.body)).byteLength).toBe(0);
      const streamed = freshKey();
      expect(await run(store.put(streamed, streamOf([]), "text/plain"))).toEqual({ size: 0 });
      expect(Option.getOrThrow(await run(store.get(streamed))).size).toBe(0);
    });

    it("gives None for a missing key", async () => {
      expect(Option.isNone(await run(store.get(freshKey())))).toBe(true);
    });

    it("removes, and removing a missing key is fine", async () => {
      const key = freshKey("png");
      await run(store.put(key, new Uint8Array([1, 2, 3]), "image/png"));
      await run(store.remove(key));
      expect(Option.isNone(await run(store.get(key)))).toBe(true);
      await run(store.remove(key));
      await run(store.remove(freshKey()));
    });

    it("keeps each object's own content type", async () => {
      const a = freshKey("png");
      const b = freshKey("mov");
      await run(store.put(a, new Uint8Array([1]), "image/png"));
      await run(store.put(b, new Uint8Array([2]), "video/quicktime"));
      expect(Option.getOrThrow(await run(store.get(a))).contentType).toBe("image/png");
      expect(Option.getOrThrow(await run(store.get(b))).contentType).toBe("video/quicktime");
    });

    it("never shows a half-written object", async () => {
      const key = freshKey();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent === 1) await gate;
          if (sent < 3) controller.enqueue(new Uint8Array(1024).fill(sent++));
          else controller.close();
        },
      });
      const putting = Effect.runPromise(store.put(key, body, "application/pdf"));
      await new Promise((r) => setTimeout(r, 100));
      expect(Option.isNone(await run(store.get(key)))).toBe(true);
      release();
      expect(await putting).toEqual({ size: 3072 });
      expect(Option.getOrThrow(await run(store.get(key))).size).toBe(3072);
    });

    it("rejects keys that could escape the store", async () => {
      for (const bad of ["", "../outside", "/etc/passwd", "a/../../b", "a//b", "a/./b", ".hidden", "a\\b", "a/b/", "x.meta.json", "nul\0byte"]) {
        const exit = await Effect.runPromiseExit(store.put(bad, new Uint8Array([1]), "text/plain"));
        expect(Exit.isFailure(exit), `put ${JSON.stringify(bad)}`).toBe(true);
        expect(Exit.isFailure(await Effect.runPromiseExit(store.get(bad))), `get ${JSON.stringify(bad)}`).toBe(true);
      }
    });

    it("streams a 50 MB put without holding it in memory", async () => {
      const key = freshKey("mp4");
      const total = 50 * 1024 * 1024;
      const chunkSize = 64 * 1024;
      // Garbage waiting for collection is not retention: the live set is sampled right after a full
      // collection, every 5 MB, from inside the producer (a store that buffered would pass 25 MB by the
      // sixth sample; a full collection of a worker that has run other files' modules takes a while).
      const gc = exposeGc();
      gc();
      const baseline = liveBytes();
      let peakLive = 0;
      let produced = 0;
      const hash = createHash("sha256");
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (produced >= total) return controller.close();
          if (produced % (5 * 1024 * 1024) === 0) {
            gc();
            peakLive = Math.max(peakLive, liveBytes() - baseline);
          }
          const chunk = new Uint8Array(chunkSize);
          for (let i = 0; i < chunk.length; i += 4096) chunk[i] = (produced / chunkSize + i) & 0xff;
          hash.update(chunk);
          produced += chunk.length;
          controller.enqueue(chunk);
        },
      });
      const rssBefore = process.memoryUsage().rss;
      expect(await run(store.put(key, body, "video/mp4"))).toEqual({ size: total });
      const rssGrowth = process.memoryUsage().rss - rssBefore;
      const mb = (n: number) => Math.round(n / 1024 / 1024);
      console.info(`[${name}] 50 MB put: peak live heap+buffers +${mb(peakLive)} MB, RSS +${mb(rssGrowth)} MB`);
      expect(peakLive).toBeLessThan(25 * 1024 * 1024);
      expect(rssGrowth).toBeLessThan(45 * 1024 * 1024);

      const blob = Option.getOrThrow(await run(store.get(key)));
      expect(blob.size).toBe(total);
      const readBack = createHash("sha256");
      let read = 0;
      for await (const chunk of blob.body as unknown as AsyncIterable<Uint8Array>) {
        readBack.update(chunk);
        read += chunk.byteLength;
      }
      expect(read).toBe(total);
      expect(readBack.digest("hex")).toBe(hash.digest("hex"));
      await run(store.remove(key));
    }, 180_000);
  });
