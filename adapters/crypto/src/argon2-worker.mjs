// @ts-check
// One argon2id computation on a worker thread of the password pool (ADR 0096). Plain JavaScript:
// the pool loads it by path in a bare worker thread (no TypeScript loader there, in the server or under
// vitest). The pool lowers these threads' CPU priority (piscina's niceIncrement).
import { hashSync, verifySync } from "@node-rs/argon2";

/**
 * @param {{ op: "hash"; password: string; options: import("@node-rs/argon2").Options } | { op: "verify"; hash: string; password: string }} task
 * @returns {string | boolean}
 */
export default function argon2(task) {
  if (task.op === "hash") return hashSync(task.password, task.options);
  // A malformed stored hash is "does not match", not a crash.
  try {
    return verifySync(task.hash, task.password);
  } catch {
    return false;
  }
}
