import { randomInt } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { PASSWORD_PATTERN } from "@crown/core";

/**
 * The demo accounts' passwords, generated for each data directory (issue 15, ADR 24): never a
 * published one. They are kept in `$CROWN_DATA_DIR/demo-accounts.json` (owner-only, mode 0600)
 * so a later start of the same data directory prints and accepts the same ones.
 */

export interface DemoCredential {
  readonly role: string;
  readonly email: string;
  readonly password: string;
}

export const DEMO_ACCOUNTS_FILE = "demo-accounts.json";
export const demoAccountsPath = (dataDir: string) => path.join(dataDir, DEMO_ACCOUNTS_FILE);

// No look-alikes (0/O, 1/l/I), so a password read off a terminal can be typed.
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** 4 groups of 5 random letters and digits joined by "-": about 110 bits, and it meets the spec's password rule. */
export const generateDemoPassword = (): string => {
  for (;;) {
    const groups = Array.from({ length: 4 }, () => Array.from({ length: 5 }, () => ALPHABET[randomInt(ALPHABET.length)]).join(""));
    const password = groups.join("-");
    if (PASSWORD_PATTERN.test(password)) return password;
  }
};

const isCredential = (x: unknown): x is DemoCredential =>
  typeof x === "object" && x !== null && ["role", "email", "password"].every((k) => typeof (x as Record<string, unknown>)[k] === "string");

/** The saved credentials, or none when the file is missing or unreadable (then new ones are made). */
export const readDemoCredentials = async (dataDir: string): Promise<DemoCredential[]> => {
  try {
    const parsed: unknown = JSON.parse(await readFile(demoAccountsPath(dataDir), "utf8"));
    return Array.isArray(parsed) ? parsed.filter(isCredential) : [];
  } catch {
    return [];
  }
};

export const writeDemoCredentials = async (dataDir: string, credentials: ReadonlyArray<DemoCredential>) => {
  const file = demoAccountsPath(dataDir);
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  // writeFile's mode applies only when it creates the file.
  await chmod(file, 0o600);
  return file;
};
