import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright";
import { repoRoot } from "./server.ts";

/**
 * "No English on a Spanish screen", checked generically (issue 21): every message of the portal's
 * English catalogues that is not the same in Spanish gives its literal phrases (the text between
 * placeholders, ICU blocks and tags) of at least two words; a Spanish screen shows none of them.
 */

const LOCALES = path.join(repoRoot, "apps/web/src/i18n/locales");

type Tree = { readonly [key: string]: string | Tree };

const flatten = (tree: Tree, prefix = ""): Array<[string, string]> =>
  Object.entries(tree).flatMap(([key, value]) => (typeof value === "string" ? [[`${prefix}${key}`, value] as [string, string]] : flatten(value, `${prefix}${key}.`)));

const readCatalogue = (language: string, file: string): Map<string, string> => {
  try {
    return new Map(flatten(JSON.parse(readFileSync(path.join(LOCALES, language, file), "utf8")) as Tree));
  } catch {
    // An area with no Spanish file yet: every English message of it counts.
    return new Map();
  }
};

/** The literal runs of a message: outside `{…}` (nested ICU blocks included) and with tags as breaks. */
export const literalRuns = (message: string): string[] => {
  const runs: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of message) {
    if (ch === "{") {
      if (depth === 0) {
        runs.push(current);
        current = "";
      }
      depth++;
    } else if (ch === "}") depth = Math.max(0, depth - 1);
    else if (depth === 0) current += ch;
  }
  runs.push(current);
  return runs
    .flatMap((run) => run.split(/<\/?[a-zA-Z][^>]*>/))
    .map((run) => run.replace(/\s+/g, " ").trim())
    .filter((run) => run.split(" ").filter((word) => /\p{L}/u.test(word)).length >= 2);
};

/** Every English phrase (≥ 2 words) of a message whose Spanish differs or is missing, with where it comes from. */
export const englishPhrases = (): ReadonlyArray<{ readonly phrase: string; readonly key: string }> => {
  const found = new Map<string, string>();
  for (const file of readdirSync(path.join(LOCALES, "en")).filter((f) => f.endsWith(".json")).sort()) {
    const english = readCatalogue("en", file);
    const spanish = readCatalogue("es", file);
    for (const [key, text] of english) {
      const other = spanish.get(key);
      if (other === text) continue;
      for (const phrase of literalRuns(text)) {
        // A phrase the Spanish keeps too (a name, a unit) is not English on a Spanish screen.
        if (other?.includes(phrase)) continue;
        if (!found.has(phrase)) found.set(phrase, `${file.replace(/\.json$/, "")}:${key}`);
      }
    }
  }
  return [...found].map(([phrase, key]) => ({ phrase, key }));
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The English phrases the page shows: its rendered text (what is on screen, and what a screen
 * reader reads from the DOM), as whole words, without case (CSS may upper-case a heading) and
 * whitespace.
 */
export const englishOn = async (page: Page, phrases = englishPhrases()): Promise<string[]> => {
  const text = (await page.locator("body").innerText()).replace(/\s+/g, " ");
  return phrases
    .filter(({ phrase }) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(phrase)}(?![\\p{L}\\p{N}])`, "iu").test(text))
    .map(({ phrase, key }) => `"${phrase}" (${key})`);
};
