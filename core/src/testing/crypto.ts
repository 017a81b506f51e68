import { Effect } from "effect";
import type { PasswordHasherPort, RandomPort, SecretsPort } from "../shared/ports.ts";

/**
 * Deterministic stand-ins for the crypto adapter: not cryptographic, and core stays free of node
 * built-ins, so no node:crypto either.
 */

/** One 32-bit lane of a murmur/cyrb-style string hash. */
const lane = (text: string, seed: number): number => {
  let h = 0x9e3779b9 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 15;
  }
  h ^= text.length;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

/** A 128-bit (four lanes) hex digest: deterministic and collision-free for any test's inputs. */
export const testDigest = (text: string): string =>
  [0x01, 0x2b, 0x3c5, 0x4d6f].map((seed) => lane(text, seed).toString(16).padStart(8, "0")).join("");

const constantTimeEquals = (a: string, b: string): boolean => {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
};

export const makeTestSecrets = (key = "test-server-secret"): SecretsPort => {
  const sign = (payload: string) => testDigest(`sign|${key}|${payload}`);
  return {
    digest: (secret) => testDigest(`digest|${secret}`),
    sign,
    verifySignature: (payload, signature) => constantTimeEquals(sign(payload), signature),
  };
};

/** "hash:" + password. Fast and reversible: for tests only. */
export const TEST_HASH_PREFIX = "hash:";
export const makeTestPasswordHasher = (): PasswordHasherPort => ({
  hash: (password) => Effect.succeed(TEST_HASH_PREFIX + password),
  verify: (hash, password) => Effect.succeed(hash === TEST_HASH_PREFIX + password),
});

/** Counter-based identifiers (sortable, ULID-length) and secrets (unique base64url strings). */
export const makeTestRandom = (): RandomPort => {
  let ids = 0;
  let secrets = 0;
  return {
    identifier: () => `01TESTID${String(++ids).padStart(18, "0")}`,
    secret: (bytes) => {
      const n = String(++secrets).padStart(8, "0");
      // Roughly as long as `bytes` random bytes in base64url, so lengths look realistic.
      const length = Math.max(Math.ceil((bytes * 4) / 3), 12);
      return `s${n}_`.padEnd(length, "x");
    },
  };
};
