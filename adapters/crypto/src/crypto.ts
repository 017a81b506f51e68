import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { promises as fs } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Piscina } from "piscina";
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
 * Password hashing off the request thread in a bounded pool (ADR 0030, 0096, 0105): argon2id runs on its own
 * worker threads (not libuv's pool, which file reads, DNS and zlib share), on at most half the cores (at
 * least one thread, at most four), at a lower CPU priority than the thread that serves requests (Linux keeps a
 * nice value per thread): a burst of sign-ins uses the CPU the other routes leave, and waits its turn beyond.
 * Half, not all: with a hash on every core, each core the request thread, PostgreSQL or a client wake on
 * is busy with one (on 2 cores the Results page's p99 rose 1.7-2.1x under 10 sign-ins/s with two threads,
 * 1.7-1.8x with one).
 */
export const argon2SlotsFor = (cores: number) => Math.min(4, Math.max(1, Math.floor(cores / 2)));
export const ARGON2_SLOTS = argon2SlotsFor(availableParallelism());
/** How much lower the hashing threads' priority is (nice +10: about a tenth of a core's share against the request thread). */
export const ARGON2_NICE_INCREMENT = 10;

type Argon2Task = { op: "hash"; password: string; options: typeof ARGON2_OPTIONS } | { op: "verify"; hash: string; password: string };

/** The port, and `close` to end its threads (the layer does when its scope closes). */
export interface PasswordHashing extends PasswordHasherPort {
  readonly close: () => Promise<void>;
}

export const makePasswordHasher = (slots: number = ARGON2_SLOTS): PasswordHashing => {
  // Made on the first hash (a CLI command that never hashes starts no thread; the server hashes once as it
  // starts), then kept: starting a thread cost 70-250 ms and 90-360 ms of CPU, paid by a sign-in after every
  // idle minute while threads expired after one. Idle threads are unref'd (piscina), so a CLI still exits.
  let pool: Piscina<Argon2Task, string | boolean> | undefined;
  const run = (task: Argon2Task) =>
    Effect.promise(() => {
      pool ??= new Piscina<Argon2Task, string | boolean>({
        filename: new URL("./argon2-worker.mjs", import.meta.url).href,
        minThreads: Math.max(1, slots),
        maxThreads: Math.max(1, slots),
        concurrentTasksPerWorker: 1,
        idleTimeout: Number.POSITIVE_INFINITY,
        niceIncrement: ARGON2_NICE_INCREMENT,
        // Not node's flags of the process: under `pnpm start` they load tsx (and esbuild) into each thread,
        // which hashes plain JavaScript (about 150 ms of CPU more per thread started).
        execArgv: [],
      });
      return pool.run(task);
    });
  return {
    hash: (password) => run({ op: "hash", password, options: ARGON2_OPTIONS }).pipe(Effect.map(String)),
    verify: (hash, password) => run({ op: "verify", hash, password }).pipe(Effect.map((ok) => ok === true)),
    close: async () => {
      const closing = pool;
      pool = undefined;
      await closing?.destroy();
    },
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

// Kept threads end with the services that own them (a test's server, a CLI command's services), not with the process.
export const passwordHasherLayer: Layer.Layer<PasswordHasher> = Layer.scoped(
  PasswordHasher,
  Effect.acquireRelease(Effect.sync(() => makePasswordHasher()), (hashing) => Effect.promise(() => hashing.close())),
);
export const randomLayer: Layer.Layer<Random> = Layer.sync(Random, makeRandom);
export const contentSnifferLayer: Layer.Layer<ContentSniffer> = Layer.sync(ContentSniffer, makeContentSniffer);
export const secretsLayer = (serverSecret: string | Uint8Array): Layer.Layer<Secrets> =>
  Layer.sync(Secrets, () => makeSecrets(serverSecret));

/** Every crypto port in one layer. */
export const cryptoLayer = (serverSecret: string | Uint8Array): Layer.Layer<PasswordHasher | Secrets | Random | ContentSniffer> =>
  Layer.mergeAll(passwordHasherLayer, secretsLayer(serverSecret), randomLayer, contentSnifferLayer);
