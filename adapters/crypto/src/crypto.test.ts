import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ContentSniffer, PasswordHasher, Random, Secrets } from "@crown/core";
import { Effect, Option } from "effect";
import { describe, expect, it } from "vitest";
import { ARGON2_NICE_INCREMENT, argon2SlotsFor, cryptoLayer, loadOrCreateServerSecret, makeContentSniffer, makePasswordHasher, makeRandom, makeSecrets, passwordHasherLayer } from "./crypto.ts";

const SECRET = "test-server-secret-0123456789abcdef";
/** A thread's nice value, from its line in /proc. */
const niceOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
/** This process's threads at the hashing pool's lowered priority (its threads, in these tests). */
const hashingThreads = () => {
  const lowered = Math.min(19, niceOf(readFileSync("/proc/self/stat", "utf8")) + ARGON2_NICE_INCREMENT);
  return readdirSync("/proc/self/task").filter((tid) => niceOf(readFileSync(`/proc/self/task/${tid}/stat`, "utf8")) === lowered);
};
const run = <A>(eff: Effect.Effect<A, never, PasswordHasher | Secrets | Random | ContentSniffer>) =>
  Effect.runPromise(Effect.provide(eff, cryptoLayer(SECRET)));

/** An ISO base-media `ftyp` box followed by an empty `mdat`, enough for a sniffer. */
const ftyp = (major: string, compatible: string[]) => {
  const brands = [major, "\0\0\0\0", ...compatible].join("");
  const box = Buffer.alloc(8 + brands.length);
  box.writeUInt32BE(box.length, 0);
  box.write("ftyp", 4, "latin1");
  box.write(brands, 8, "latin1");
  const mdat = Buffer.from([0, 0, 0, 8, ...Buffer.from("mdat")]);
  return new Uint8Array(Buffer.concat([box, mdat, Buffer.alloc(64)]));
};

const png = () => {
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write("IHDR", 4, "latin1");
  ihdr.writeUInt32BE(1, 8);
  ihdr.writeUInt32BE(1, 12);
  ihdr[16] = 8;
  ihdr[17] = 2;
  return new Uint8Array(Buffer.concat([sig, ihdr, Buffer.alloc(32)]));
};

const jpeg = () =>
  new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from("JFIF\0", "latin1"), Buffer.alloc(64)]));

describe("PasswordHasher (argon2id)", () => {
  it("a burst of hashes leaves libuv's thread pool to file reads (bounded, ADR 0030)", async () => {
    const hasher = makePasswordHasher();
    const started = performance.now();
    await Effect.runPromise(hasher.hash("warm-up-pw-1"));
    const oneHash = performance.now() - started;
    const burst = Effect.runPromise(Effect.all(Array.from({ length: 8 }, (_, i) => hasher.verify("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY", `pw-${i}`)), { concurrency: "unbounded" }));
    await new Promise((r) => setTimeout(r, 5));
    const statStarted = performance.now();
    await stat(tmpdir());
    const statMs = performance.now() - statStarted;
    await burst;
    // Unbounded, the stat waits behind four hashes on the pool's four threads.
    expect(statMs).toBeLessThan(oneHash / 2);
  });

  it("hashes on pool threads at a lower CPU priority than the thread that serves requests (ADR 0096)", async () => {
    const own = niceOf(readFileSync("/proc/self/stat", "utf8"));
    const hasher = makePasswordHasher(1);
    const hash = await Effect.runPromise(hasher.hash("priority-pw"));
    expect(await Effect.runPromise(hasher.verify(hash, "priority-pw"))).toBe(true);
    const threads = readdirSync("/proc/self/task").map((tid) => niceOf(readFileSync(`/proc/self/task/${tid}/stat`, "utf8")));
    expect(threads).toContain(Math.min(19, own + ARGON2_NICE_INCREMENT));
    // The process (its main thread, which serves requests) keeps its priority.
    expect(niceOf(readFileSync("/proc/self/stat", "utf8"))).toBe(own);
  });

  it("starts all its hashing threads with the first hash and keeps them (ADR 0107)", async () => {
    const before = new Set(hashingThreads());
    const hasher = makePasswordHasher(2);
    await Effect.runPromise(hasher.hash("first-pw"));
    // Both threads are asked for with the first hash: the second sign-in of a burst does not pay for
    // starting one. The second may still be starting when the first hash returns (a busy machine: the
    // full suite), so wait for it with no further hash; a pool that starts threads on demand never shows it.
    const newThreads = () => hashingThreads().filter((tid) => !before.has(tid));
    for (const deadline = Date.now() + 10_000; newThreads().length < 2 && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const started = newThreads();
    expect(started).toHaveLength(2);
    await Effect.runPromise(Effect.all([hasher.hash("second-pw"), hasher.hash("third-pw")], { concurrency: 2 }));
    expect(newThreads().sort()).toEqual(started.sort());
  });

  it("ends its kept threads when the services that own them close", async () => {
    const before = new Set(hashingThreads());
    const during: string[] = [];
    await Effect.runPromise(
      Effect.provide(
        Effect.flatMap(PasswordHasher, (hasher) =>
          Effect.tap(hasher.hash("scoped-pw"), () => Effect.sync(() => during.push(...hashingThreads().filter((tid) => !before.has(tid))))),
        ),
        passwordHasherLayer,
      ),
    );
    expect(during.length).toBeGreaterThan(0);
    expect(hashingThreads().filter((tid) => during.includes(tid))).toEqual([]);
  });

  it("hashes on at most half the cores, at least one thread and at most four (ADR 0105)", () => {
    expect([1, 2, 3, 4, 6, 8, 64].map(argon2SlotsFor)).toEqual([1, 1, 1, 2, 3, 4, 4]);
  });

  it("hashes with OWASP parameters and verifies the right password only", async () => {
    const { hash, ok, wrong, garbage } = await run(
      Effect.gen(function* () {
        const hasher = yield* PasswordHasher;
        const hash = yield* hasher.hash("correct horse battery staple");
        return {
          hash,
          ok: yield* hasher.verify(hash, "correct horse battery staple"),
          wrong: yield* hasher.verify(hash, "correct horse battery stapl"),
          garbage: yield* hasher.verify("not-a-hash", "whatever"),
        };
      }),
    );
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(hash).not.toContain("correct horse");
    expect(ok).toBe(true);
    expect(wrong).toBe(false);
    expect(garbage).toBe(false);
  });

  it("salts: the same password hashes differently each time", async () => {
    const [a, b] = await run(Effect.flatMap(PasswordHasher, (h) => Effect.all([h.hash("pw-12345678"), h.hash("pw-12345678")])));
    expect(a).not.toBe(b);
  });
});

describe("Secrets", () => {
  const secrets = makeSecrets(SECRET);

  it("digest is a stable SHA-256 hex", () => {
    expect(secrets.digest("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(secrets.digest("token-1")).toBe(secrets.digest("token-1"));
    expect(secrets.digest("token-1")).not.toBe(secrets.digest("token-2"));
  });

  it("signs with HMAC-SHA256 base64url and verifies", () => {
    const sig = secrets.sign("verify-email|01ABC|tok|123");
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secrets.verifySignature("verify-email|01ABC|tok|123", sig)).toBe(true);
  });

  it("rejects a tampered signature, a tampered payload, another key's signature and junk", () => {
    const payload = "verify-email|01ABC|tok|123";
    const sig = secrets.sign(payload);
    const flipped = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
    expect(secrets.verifySignature(payload, flipped)).toBe(false);
    expect(secrets.verifySignature(payload + "4", sig)).toBe(false);
    expect(secrets.verifySignature(payload, makeSecrets("another-secret-0123456789").sign(payload))).toBe(false);
    expect(secrets.verifySignature(payload, "")).toBe(false);
    expect(secrets.verifySignature(payload, sig + "x")).toBe(false);
    expect(secrets.verifySignature(payload, "é".repeat(22))).toBe(false);
  });

  it("refuses a short server secret", () => {
    expect(() => makeSecrets("short")).toThrow();
  });
});

describe("Random", () => {
  it("identifiers are unique, 26-char ULIDs that sort in creation order", () => {
    const random = makeRandom();
    const ids = Array.from({ length: 5000 }, () => random.identifier());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect([...ids].sort()).toEqual(ids);
  });

  it("secret(bytes) is base64url of that many random bytes", () => {
    const random = makeRandom();
    const s = random.secret(32);
    expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(s, "base64url").length).toBe(32);
    expect(random.secret(32)).not.toBe(s);
  });
});

describe("ContentSniffer", () => {
  const sniff = (bytes: Uint8Array) => Effect.runPromise(makeContentSniffer().sniff(bytes));

  // An image's size comes from its header when the head reaches it (the PNG's IHDR says 1 × 1; this JPEG has no frame header).
  it.each([
    ["PNG", png(), "image/png", "png", { width: 1, height: 1 }],
    ["JPEG", jpeg(), "image/jpeg", "jpg", {}],
    ["MP4", ftyp("isom", ["isom", "iso2", "mp41"]), "video/mp4", "mp4", {}],
    ["MOV", ftyp("qt  ", ["qt  "]), "video/quicktime", "mov", {}],
  ])("recognises %s by its bytes", async (_name, bytes, mime, ext, size) => {
    expect(await sniff(bytes)).toEqual(Option.some({ mime, ext, ...size }));
  });

  it("gives None for plain text and for nothing", async () => {
    expect(Option.isNone(await sniff(new TextEncoder().encode("hello, this is just text\n")))).toBe(true);
    expect(Option.isNone(await sniff(new Uint8Array()))).toBe(true);
  });

  it("is provided by cryptoLayer", async () => {
    const found = await run(Effect.flatMap(ContentSniffer, (s) => s.sniff(png())));
    expect(Option.map(found, (f) => f.mime)).toEqual(Option.some("image/png"));
  });
});

describe("loadOrCreateServerSecret", () => {
  it("uses CROWN_SECRET when set", async () => {
    expect(await loadOrCreateServerSecret("/nonexistent", { CROWN_SECRET: "from-the-environment-123" })).toBe("from-the-environment-123");
  });

  it("creates secret.key once with mode 0600 and reuses it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "crown-secret-"));
    try {
      const dataDir = path.join(dir, "data");
      const first = await loadOrCreateServerSecret(dataDir, {});
      const second = await loadOrCreateServerSecret(dataDir, {});
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(second).toBe(first);
      expect((await readFile(path.join(dataDir, "secret.key"), "utf8")).trim()).toBe(first);
      if (process.platform !== "win32") expect((await stat(path.join(dataDir, "secret.key"))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
