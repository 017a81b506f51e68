import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { connectPglite } from "./connect.ts";
import { migrateToLatest, migrations } from "./migrations/index.ts";

/**
 * A freshly migrated embedded cluster, kept as a PGlite dump (tar.gz) so that a new data directory
 * starts from it instead of running initdb and every migration in WebAssembly: about 3 s instead of
 * 15-20 s of a core on the first start, which every newcomer's first `pnpm start` and every test that
 * starts Crown pays (ADR 0172). The release build writes one beside the bundle; where none is, or it was
 * made for other migrations, the first start runs initdb as before.
 *
 * Beside the dump, `<file>.json` names the migrations it holds: a template is used only when they are
 * exactly this code's migrations, in order, so a stale one is never loaded.
 */

const migrationNames = (): string[] => Object.keys(migrations);

const manifestOf = (file: string) => `${file}.json`;

/** Writes `bytes` under `file` through a unique name and a rename: a reader never sees half a file. */
const writeWhole = (file: string, bytes: Uint8Array | string) => {
  const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(partial, bytes, { mode: 0o644 });
  renameSync(partial, file);
};

/** The dump under `file` when it holds exactly this code's migrations; undefined otherwise. */
export const readPgliteTemplate = (file: string | undefined): Blob | undefined => {
  if (file === undefined || !existsSync(file) || !existsSync(manifestOf(file))) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(manifestOf(file), "utf8")) as { migrations?: unknown };
    const names = migrationNames();
    const held = Array.isArray(manifest.migrations) ? manifest.migrations : [];
    if (held.length !== names.length || held.some((name, i) => name !== names[i])) return undefined;
    return new Blob([readFileSync(file)]);
  } catch {
    // An unreadable template is no template: initdb still makes a correct cluster.
    return undefined;
  }
};

/** Makes a migrated cluster (in memory, with the adapter's settings) and writes its dump and manifest under `file`. */
export const writePgliteTemplate = async (file: string): Promise<Blob> => {
  const connection = await connectPglite(undefined);
  try {
    await migrateToLatest(connection.db);
    const dump = await connection.pglite.dumpDataDir("gzip");
    writeWhole(file, new Uint8Array(await dump.arrayBuffer()));
    writeWhole(manifestOf(file), `${JSON.stringify({ migrations: migrationNames() }, null, 1)}\n`);
    return dump;
  } finally {
    await connection.close();
  }
};
