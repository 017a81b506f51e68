// What the kill -9 trials share: a `crown start` that can be killed and started again on the same data,
// a baby to report on, and an upload whose body never ends.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Database } from "@crown/db";
import { crownCommand } from "../crown-command.ts";
import { type CrownProcess, repoRoot, spawnCrown, waitUntil } from "./crown-processes.ts";

/** `crown user:create` with `env` (the database, secret and storage of the trial) on `dataDir`. */
export const createUser = (env: Record<string, string>, dataDir: string, role: string, email: string, password: string) => {
  const r = spawnSync(...crownCommand(["user:create", "--role", role, "--email", email, "--password", password]), {
    cwd: repoRoot,
    env: { ...process.env, ...env, CROWN_DATA_DIR: dataDir },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`user:create failed: ${r.stdout}\n${r.stderr}`);
};

/** `crown start` on `port` with `env`, ready once /readyz answers; call again after a kill to restart on the same data directory. */
export const startCrownOn = async (port: number, env: Record<string, string>, dataDir: string): Promise<CrownProcess> => {
  const url = `http://127.0.0.1:${port}`;
  const server = spawnCrown(["start"], { ...env, PORT: String(port), PUBLIC_URL: url }, "crown-crash-", dataDir);
  await waitUntil("crown start", server, async () => {
    try {
      return (await fetch(`${url}/readyz`)).ok;
    } catch {
      return false;
    }
  });
  return server;
};

/** A baby of the parent with this e-mail, written straight into the database. */
export const babyOf = async (db: Kysely<Database>, parentEmail: string) => {
  const parentId = (await sql<{ id: string }>`select id from users where email = ${parentEmail}`.execute(db)).rows[0]!.id;
  const babyId = `01BCRASH${randomBytes(6).toString("hex").toUpperCase()}`.slice(0, 26);
  await sql`insert into babies (id, parent_id, first_name, last_name, date_of_birth, relation, gender, created_by)
            values (${babyId}, ${parentId}, 'Mia', 'Rivera', '2026-08-01', 'mother', 'female', ${parentId})`.execute(db);
  return babyId;
};

/** `POST /report/upload` whose body sends `head` and then nothing more: the process is killed while it waits. Never rejects. */
export const uploadThatNeverEnds = (url: string, token: string, boundary: string, head: Uint8Array) =>
  fetch(`${url}/api/v1/en/report/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    body: new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
    }),
    duplex: "half",
  } as RequestInit).then(
    () => null,
    () => null,
  );
