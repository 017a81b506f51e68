import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { promises as fs } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { hash as argonHash, verify as argonVerify } from "@node-rs/argon2";
import {
  ContentSniffer,
  PasswordHasher,
  Random,
  Secrets,
  type ContentSnifferPort,
  type PasswordHasherPort,
  type RandomPort,
  type SecretsPort,
} from "@crown/core";
import { Effect, Layer, Option } from "effect";
import { fileTypeFromBuffer } from "file-type";
import { imageSize } from "image-size";
import { monotonicFactory } from "ulid";

/** OWASP's recommended argon2id setting (m=19 MiB, t=2, p=1). */
export const ARGON2_OPTIONS = { algorithm: 2 /* Algorithm.Argon2id (an ambient const enum) */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes computed at once by this process (ADR 0030). argon2 runs off the event loop on libuv's
 * thread pool (4 threads), which file reads, DNS and zlib share: a burst of sign-ins would take
 * every thread and both cores. One hash at a time per spare core, at least one and at most two,
 * leaves half the pool and a core to the other routes; the rest of a burst waits its turn.
 */
export const ARGON2_SLOTS = Math.min(2, Math.max(1, availableParallelism() - 1));

export const makePasswordHasher = (slots: number = ARGON2_SLOTS): PasswordHasherPort => {
  const gate = Effect.unsafeMakeSemaphore(Math.max(1, slots));
  return {
    hash: (password) => gate.withPermits(1)(Effect.promise(() => argonHash(password, ARGON2_OPTIONS))),
    // A malformed stored hash is "does not match", not a crash.
    verify: (hash, password) => gate.withPermits(1)(Effect.promise(() => argonVerify(hash, password).catch(() => false))),
  };
};

const toBase64Url = (buf: Buffer) => buf.toString("base64url");

export const makeSecrets = (serverSecret: string | Uint8Array): SecretsPort => {
  if ((typeof serverSecret === "string" ? Buffer.byteLength(serverSecret) : serverSecret.byteLength) < 16) {
    throw new Error("The server secret must be at least 16 bytes long");
  }
  const key = typeof serverSecret === "string" ? Buffer.from(serverSecret, "utf8") : Buffer.from(serverSecret);
  const sign = (payload: string) => toBase64Url(createHmac("sha256", key).update(payload, "utf8").digest());
  return {
    digest: (secret) => createHash("sha256").update(secret, "utf8").digest("hex"),
    sign,
    verifySignature: (payload, signature) => {
      const expected = Buffer.from(sign(payload), "utf8");
      const given = Buffer.from(signature, "utf8");
      // timingSafeEqual requires equal lengths; a length mismatch is already a failure.
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
};

export const makeRandom = (): RandomPort => {
  // Monotonic so identifiers made in the same millisecond still sort in creation order.
  const ulid = monotonicFactory();
  return {
    identifier: () => ulid(),
    secret: (bytes) => toBase64Url(randomBytes(bytes)),
  };
};

/** An image's size from its header (image-size reads no pixel); null when the head does not reach it. */
const pixelSize = (head: Uint8Array): { width: number; height: number } | null => {
  try {
    const { width, height } = imageSize(head);
    return width > 0 && height > 0 ? { width, height } : null;
  } catch {
    return null;
  }
};

/** QuickTime files are detected by file-type as "video/quicktime"; everything else passes through. */
export const makeContentSniffer = (): ContentSnifferPort => ({
  sniff: (head) =>
    Effect.promise(async () => {
      const found = await fileTypeFromBuffer(head).catch(() => undefined);
      if (!found) return Option.none();
      const size = found.mime.startsWith("image/") ? pixelSize(head) : null;
      return Option.some({ mime: found.mime as string, ext: found.ext as string, ...(size ?? {}) });
    }),
});

const SECRET_FILE = "secret.key";

/**
 * The server secret signs links: `CROWN_SECRET` wins; otherwise one is generated once and kept in
 * `${dataDir}/secret.key` (mode 0600) so links stay valid across restarts.
 */
export const loadOrCreateServerSecret = async (dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<string> => {
  const fromEnv = env.CROWN_SECRET?.trim();
  if (fromEnv) {
    if (Buffer.byteLength(fromEnv) < 16) throw new Error("CROWN_SECRET must be at least 16 characters long");
    return fromEnv;
  }
  const file = path.join(dataDir, SECRET_FILE);
  try {
    const existing = (await fs.readFile(file, "utf8")).trim();
    if (existing.length >= 16) return existing;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  await fs.mkdir(dataDir, { recursive: true });
  const created = toBase64Url(randomBytes(48));
  try {
    // "wx": if another process created it first, use theirs.
    await fs.writeFile(file, created + "\n", { mode: 0o600, flag: "wx" });
    return created;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return (await fs.readFile(file, "utf8")).trim();
    throw e;
  }
};

export const passwordHasherLayer: Layer.Layer<PasswordHasher> = Layer.sync(PasswordHasher, () => makePasswordHasher());
export const randomLayer: Layer.Layer<Random> = Layer.sync(Random, makeRandom);
export const contentSnifferLayer: Layer.Layer<ContentSniffer> = Layer.sync(ContentSniffer, makeContentSniffer);
export const secretsLayer = (serverSecret: string | Uint8Array): Layer.Layer<Secrets> =>
  Layer.sync(Secrets, () => makeSecrets(serverSecret));

/** Every crypto port in one layer. */
export const cryptoLayer = (serverSecret: string | Uint8Array): Layer.Layer<PasswordHasher | Secrets | Random | ContentSniffer> =>
  Layer.mergeAll(passwordHasherLayer, secretsLayer(serverSecret), randomLayer, contentSnifferLayer);
