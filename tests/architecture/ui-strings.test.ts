import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { IntlMessageFormat } from "intl-messageformat";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/*
 * The extraction check of issue 21 (ADR 78): a screen in the catalogues shows no English written in its
 * JSX (text nodes, or a literal label, title, aria-label, placeholder, alt or description), every key the
 * portal and kiosk use is in the English catalogue, and every language has every key.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Every screen of the portal and the kiosk: all are in the catalogues, so a literal anywhere fails. */
const SCREEN_DIRS = ["apps/web/src", "apps/kiosk/src"];

const CATALOGUES = { web: "apps/web/src/i18n/locales", kiosk: "apps/kiosk/src/i18n/locales" };

/** Attributes a person reads or hears. */
const READ_ATTRIBUTES = new Set(["label", "title", "subtitle", "aria-label", "placeholder", "alt", "description", "aria-description"]);

const literalsIn = (file: string, text = readFileSync(path.join(root, file), "utf8")): string[] => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && /\p{L}/u.test(node.text)) found.push(node.text.trim());
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText()) && node.initializer) {
      const init = node.initializer;
      const literal = ts.isStringLiteral(init) ? init.text : ts.isJsxExpression(init) && init.expression && (ts.isStringLiteral(init.expression) || ts.isNoSubstitutionTemplateLiteral(init.expression)) ? init.expression.text : null;
      if (literal !== null && /\p{L}/u.test(literal)) found.push(`${node.name.getText()}="${literal}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
};

const flatten = (value: unknown, prefix = ""): Record<string, string> =>
  typeof value === "string"
    ? { [prefix]: value }
    : Object.assign({}, ...Object.entries(value as Record<string, unknown>).map(([k, v]) => flatten(v, prefix && !prefix.endsWith(":") ? `${prefix}.${k}` : `${prefix}${k}`)));

/** Every area's catalogue of a language (`<dir>/<language>/<area>.json`), its keys as `area:group.key`. */
const catalogue = (dir: string, language: string): Record<string, string> =>
  Object.assign(
    {},
    ...readdirSync(path.join(root, dir, language))
      .filter((name) => name.endsWith(".json"))
      .map((name) => flatten(JSON.parse(readFileSync(path.join(root, dir, language, name), "utf8")), `${name.slice(0, -".json".length)}:`)),
  );

const sourceFiles = (dir: string): string[] =>
  readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [rel] : [];
  });

describe("the portal's words are in its catalogues", () => {
  const screens = SCREEN_DIRS.flatMap(sourceFiles).filter((file) => file.endsWith(".tsx"));

  it.each(screens)("%s shows no literal English", (file) => {
    expect(literalsIn(file)).toEqual([]);
  });


  it("catches a literal (the check itself can fail)", () => {
    const probe = `export const Probe = () => <button aria-label="Close">Page not found {name}</button>;`;
    expect(literalsIn("probe.tsx", probe)).toEqual(['aria-label="Close"', "Page not found"]);
  });

  for (const [app, dir] of Object.entries(CATALOGUES)) {
    it(`${app}: every language has every key, each a valid ICU message`, () => {
      const english = catalogue(dir, "en");
      for (const language of ["en", "es"]) {
        const other = catalogue(dir, language);
        expect(Object.keys(other).sort(), language).toEqual(Object.keys(english).sort());
        for (const [key, text] of Object.entries(other)) expect(() => new IntlMessageFormat(text, language, undefined, { ignoreTag: true }), `${language} ${key}`).not.toThrow();
      }
    });

    it(`${app}: every key the code asks for is in the catalogue`, () => {
      const english = catalogue(dir, "en");
      // A key is looked up in its file's area (`useTranslation("area")`, else common) unless it names one (`area:key`).
      const used = sourceFiles(path.dirname(path.dirname(dir))).flatMap((file) => {
        const text = readFileSync(path.join(root, file), "utf8");
        const area = /useTranslation\(\s*\[?\s*"(\w+)"/.exec(text)?.[1] ?? "common";
        return [...text.matchAll(/\bt\(\s*"([\w.:]+)"|i18nKey="([\w.:]+)"/g)].map((m) => m[1] ?? m[2]!).map((key) => (key.includes(":") ? key : `${area}:${key}`));
      });
      expect(used.length).toBeGreaterThan(0);
      expect(used.filter((key) => !(key in english))).toEqual([]);
    });
  }
});
