import { fc, test } from "@fast-check/vitest";
import { Effect, Option } from "effect";
import { describe, expect, it } from "vitest";
import { newUser } from "../accounts/service.ts";
import { Users } from "../accounts/model.ts";
import { audit, BlobStore, ContentSniffer, now, RateLimiter, transaction } from "../shared/ports.ts";
import { DEFAULT_START, makeTestRandom, makeTestSecrets, makeTestWorld, sampleBytes, testDigest } from "./memory.ts";

/** The in-memory world must behave like the real adapters where tests rely on it. */

const aUser = (id: string, email: string) =>
  newUser({ id, email, passwordHash: "hash:x", type: "parent", firstName: "A", lastName: "B", phone: null, at: DEFAULT_START });

describe("in-memory world", () => {
  it("has a clock that moves only when told to (and with Effect.sleep)", async () => {
    const world = makeTestWorld();
    expect((await world.run(now)).toISOString()).toBe(DEFAULT_START.toISOString());
    world.clock.advance(90);
    expect((await world.run(now)).getTime()).toBe(DEFAULT_START.getTime() + 90_000);
    await world.run(Effect.sleep("2 minutes"));
    expect(world.clock.millis()).toBe(DEFAULT_START.getTime() + 210_000);
  });

  it("commits a successful transaction and restores every table when one fails or dies", async () => {
    const world = makeTestWorld();
    const insert = (id: string) => Effect.flatMap(Users, (users) => users.insert(aUser(id, `${id}@example.com`)));
    await world.run(transaction(Effect.zipRight(insert("u1"), audit({ action: "kept", actorId: null }))));
    expect([...world.users.keys()]).toEqual(["u1"]);

    const failing = transaction(
      Effect.gen(function* () {
        yield* insert("u2");
        yield* Effect.flatMap(Users, (users) => users.update("u1", { firstName: "Changed" }));
        yield* audit({ action: "lost", actorId: null });
        return yield* Effect.fail("boom" as const);
      }),
    );
    expect(await world.failure(failing)).toBe("boom");
    const dying = transaction(Effect.zipRight(insert("u3"), Effect.die(new Error("crash"))));
    expect((await world.exit(dying))._tag).toBe("Failure");

    expect([...world.users.keys()]).toEqual(["u1"]);
    expect(world.users.get("u1")!.firstName).toBe("A");
    expect(world.audit.map((a) => a.action)).toEqual(["kept"]);
    expect(world.transactions).toEqual({ committed: 1, rolledBack: 2 });
  });

  it("rate limits in fixed windows and tells when to retry", async () => {
    const world = makeTestWorld();
    const hit = Effect.flatMap(RateLimiter, (r) => Effect.flatMap(now, (at) => r.hit("k", 2, 60, at)));
    expect(await world.run(hit)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    world.clock.advance(20);
    expect((await world.run(hit)).allowed).toBe(true);
    expect(await world.run(hit)).toEqual({ allowed: false, retryAfterSeconds: 40 });
    world.clock.advance(40);
    expect((await world.run(hit)).allowed).toBe(true);
    await world.run(Effect.flatMap(RateLimiter, (r) => r.reset("k")));
    expect(world.rateLimits.has("k")).toBe(false);
  });

  it("sniffs PNG, JPEG, MP4 and QuickTime by their bytes", async () => {
    const world = makeTestWorld();
    const sniff = (bytes: Uint8Array) => world.run(Effect.flatMap(ContentSniffer, (s) => s.sniff(bytes)));
    expect(await sniff(sampleBytes.png())).toEqual(Option.some({ mime: "image/png", ext: "png", width: 640, height: 480 }));
    expect(await sniff(sampleBytes.jpeg())).toEqual(Option.some({ mime: "image/jpeg", ext: "jpg", width: 640, height: 480 }));
    expect(await sniff(sampleBytes.mp4())).toEqual(Option.some({ mime: "video/mp4", ext: "mp4" }));
    expect(await sniff(sampleBytes.mov())).toEqual(Option.some({ mime: "video/quicktime", ext: "mov" }));
    expect(await sniff(sampleBytes.gif())).toEqual(Option.none());
    expect(await sniff(new Uint8Array(0))).toEqual(Option.none());
  });

  it("stores blobs from bytes and streams, and serves them back as a stream", async () => {
    const world = makeTestWorld();
    const bytes = sampleBytes.png(300);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.subarray(0, 100));
        c.enqueue(bytes.subarray(100));
        c.close();
      },
    });
    const stored = await world.run(Effect.flatMap(BlobStore, (b) => b.put("a/b.png", stream, "image/png")));
    expect(stored).toEqual({ size: 300 });
    const blob = await world.run(Effect.flatMap(BlobStore, (b) => b.get("a/b.png")));
    expect(Option.isSome(blob)).toBe(true);
    const back = new Uint8Array(await new Response(Option.getOrThrow(blob).body).arrayBuffer());
    expect(back).toEqual(bytes);
    await world.run(Effect.flatMap(BlobStore, (b) => b.remove("a/b.png")));
    expect(Option.isNone(await world.run(Effect.flatMap(BlobStore, (b) => b.get("a/b.png"))))).toBe(true);
  });

  test.prop([fc.uniqueArray(fc.string(), { minLength: 2, maxLength: 50 })])("digests and signatures do not collide", (texts) => {
    const secrets = makeTestSecrets();
    expect(new Set(texts.map(testDigest)).size).toBe(texts.length);
    expect(new Set(texts.map(secrets.digest)).size).toBe(texts.length);
    for (const t of texts) {
      expect(secrets.verifySignature(t, secrets.sign(t))).toBe(true);
      expect(secrets.verifySignature(t, secrets.sign(`${t}x`))).toBe(false);
    }
  });

  it("hands out unique identifiers and secrets", () => {
    const random = makeTestRandom();
    const ids = Array.from({ length: 1000 }, () => random.identifier());
    const secrets = Array.from({ length: 1000 }, () => random.secret(32));
    expect(new Set(ids).size).toBe(1000);
    expect(new Set(secrets).size).toBe(1000);
    expect(secrets[0]!.length).toBeGreaterThanOrEqual(43);
  });

  it("two worlds share nothing", async () => {
    const a = makeTestWorld();
    const b = makeTestWorld();
    await a.run(Effect.flatMap(Users, (users) => users.insert(aUser("u1", "x@example.com"))));
    expect(b.users.size).toBe(0);
    a.clock.advance(100);
    expect(b.clock.millis()).toBe(DEFAULT_START.getTime());
  });
});
