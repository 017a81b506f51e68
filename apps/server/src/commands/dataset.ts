import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Option } from "effect";
import { Learning } from "@crown/core";
import type { Services } from "../compose.ts";

/**
 * `crown dataset:export --out DIR` and `crown dataset:stats` (issue 41): the reviewed set in the
 * format models/head-contour evaluates on (images/ and truth.json, as tests/bench/generalisation.bench.ts
 * and `crown model:evaluate` read it) with its manifest; recorded, so a withdrawal reaches it.
 */

const json = (value: unknown) => `${JSON.stringify(value, null, 1)}\n`;

export const exportReviewedSet = async (services: Services, out: string, write: (line: string) => void): Promise<number> => {
  const directory = path.resolve(out);
  await mkdir(path.join(directory, "images"), { recursive: true });
  // A set is written whole into an empty directory: never mixed with another set's files.
  const present = (await readdir(directory)).filter((f) => f !== "images");
  if (present.length > 0 || (await readdir(path.join(directory, "images"))).length > 0) {
    write(`${directory} is not empty: choose a new directory for the set.\n`);
    return 1;
  }
  const set = await services.run(Learning.newReviewedSet);
  const kept: typeof set.examples = [];
  let unreadable = 0;
  for (const example of set.examples) {
    const bytes = await services.run(Learning.exampleImage(example.photo));
    if (Option.isNone(bytes)) {
      unreadable++;
      continue;
    }
    await writeFile(path.join(directory, example.image), bytes.value);
    kept.push(example);
  }
  const items = kept.map((e) => e.truth);
  const images = new Set(items.map((t) => t.image));
  const manifest = {
    ...set.manifest,
    counts: { ...set.manifest.counts, ...Learning.setCounts(items), unreadable },
    consent: set.manifest.consent.filter((c) => images.has(c.image)),
  };
  await writeFile(path.join(directory, "truth.json"), json({ ...set.truth, items }));
  await writeFile(path.join(directory, "manifest.json"), json(manifest));
  await services.run(Learning.recordReviewedSet({ ...set, examples: kept, manifest }, directory));
  const c = manifest.counts;
  write(`Reviewed set ${set.id} written to ${directory}\n`);
  write(`  ${c.examples} examples (${c.accepted} accepted, ${c.rejected} rejected; ${c.outline_corrected} outlines and ${c.nose_corrected} nose tips corrected)\n`);
  write(`  ${c.reviewed_photos} reviewed photos, ${c.left_out} left out (no consent, or past ${Learning.RETENTION_YEARS} years), ${unreadable} unreadable\n`);
  for (const m of manifest.models) write(`  model ${m.name ?? "unknown"} ${m.version ?? ""}: ${m.examples} examples\n`);
  return 0;
};

export const printReviewedSetStats = async (services: Services, write: (line: string) => void): Promise<number> => {
  const s = await services.run(Learning.reviewedSetStats);
  write(`Reviewed photos: ${s.reviewed_photos}\n`);
  write(`Consent: granted ${s.consent.granted}, not chosen ${s.consent.none}, declined ${s.consent.declined}, withdrawn ${s.consent.withdrawn}\n`);
  const c = s.next_set;
  write(`A set exported now: ${c.examples} examples (${c.accepted} accepted, ${c.rejected} rejected; ${c.confirmed_explicitly} decided explicitly; ${c.outline_corrected} outlines, ${c.nose_corrected} nose tips corrected; ${c.with_sticker} with a sticker)\n`);
  for (const [reason, n] of Object.entries(c.by_reason)) if (n > 0) write(`  rejected for "${reason}": ${n}\n`);
  for (const m of s.models) write(`  model ${m.name ?? "unknown"} ${m.version ?? ""}: ${m.examples}\n`);
  write(`Reviews from ${s.dates.first_review ?? "-"} to ${s.dates.last_review ?? "-"}\n`);
  write(`Sets exported: ${s.sets.length}\n`);
  for (const set of s.sets) write(`  ${set.id} ${set.created_at} ${set.examples} examples ${set.used_by_model ? `used by ${set.used_by_model}` : "not used by a shipped model"} (${set.directory})\n`);
  return 0;
};
