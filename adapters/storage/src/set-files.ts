import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Learning } from "@crown/core";
import { Effect, Layer } from "effect";

/**
 * The reviewed sets' files on this machine (issue 41): a withdrawal removes the child's images from
 * each set no shipped model has used and rewrites its truth.json and manifest.json without them. A
 * set moved elsewhere is out of reach: its rows are gone all the same, and docs/OPERATIONS.md says so.
 */

/** The only names a set's images have (`newReviewedSet`): nothing else under the directory is touched. */
const IMAGE_NAME = /^images\/[a-z0-9]+\.jpg$/;

const readJson = async (file: string): Promise<any | null> => {
  try {
    return JSON.parse(await readFile(file, "utf8"));
  } catch {
    return null;
  }
};

export const removeSetExamples = async (directory: string, images: ReadonlyArray<string>): Promise<void> => {
  const gone = new Set(images.filter((i) => IMAGE_NAME.test(i)));
  if (gone.size === 0) return;
  const truthFile = path.join(directory, "truth.json");
  const truth = await readJson(truthFile);
  if (truth && Array.isArray(truth.items)) {
    truth.items = truth.items.filter((item: { image: string }) => !gone.has(item.image));
    await writeFile(truthFile, `${JSON.stringify(truth, null, 1)}\n`);
    const manifestFile = path.join(directory, "manifest.json");
    const manifest = await readJson(manifestFile);
    if (manifest) {
      manifest.counts = { ...manifest.counts, ...Learning.setCounts(truth.items) };
      manifest.consent = (manifest.consent ?? []).filter((c: { image: string }) => !gone.has(c.image));
      manifest.withdrawn = (manifest.withdrawn ?? 0) + gone.size;
      await writeFile(manifestFile, `${JSON.stringify(manifest, null, 1)}\n`);
    }
  }
  for (const image of gone) await rm(path.join(directory, image), { force: true });
};

export const setFilesLayer = Layer.succeed(Learning.SetFiles, {
  removeExamples: (directory, images) =>
    Effect.promise(() => removeSetExamples(directory, images)).pipe(
      // A set that cannot be rewritten is logged, never a failed withdrawal: the rows are already gone.
      Effect.catchAllDefect((e) => Effect.sync(() => console.error(JSON.stringify({ level: "error", msg: "reviewed set not rewritten", directory, error: String(e) })))),
    ),
});
