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

/**
 * The screens whose words are in the catalogues. A screen joins this list once it is translated; from
 * then on a literal in it fails here. (Issue 21 moves the remaining screens in slices.)
 */
const TRANSLATED = [
  "apps/web/src/pages/Login.tsx",
  "apps/web/src/pages/SignUp.tsx",
  "apps/web/src/pages/SignupConfirmation.tsx",
  "apps/web/src/forms/passwords.tsx",
  "apps/web/src/ui/layouts.tsx",
  "apps/web/src/ui/Footer.tsx",
  "apps/web/src/i18n/LanguageSwitcher.tsx",
];

const CATALOGUES = { web: "apps/web/src/i18n/locales" };

/** Attributes a person reads or hears. */
const READ_ATTRIBUTES = new Set(["label", "title", "subtitle", "aria-label", "placeholder", "alt", "description", "aria-description"]);

const literalsIn = (file: string): string[] => {
  const source = ts.createSourceFile(file, readFileSync(path.join(root, file), "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
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
    : Object.assign({}, ...Object.entries(value as Record<string, unknown>).map(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k)));

const catalogue = (dir: string, language: string) => flatten(JSON.parse(readFileSync(path.join(root, dir, `${language}.json`), "utf8")));

const sourceFiles = (dir: string): string[] =>
  readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [rel] : [];
  });

describe("the portal's words are in its catalogues", () => {
  it.each(TRANSLATED)("%s shows no literal English", (file) => {
    expect(literalsIn(file)).toEqual([]);
  });

  it("catches a literal (the check itself can fail)", () => {
    const probe = "apps/web/src/pages/NotFound.tsx";
    expect(literalsIn(probe).length).toBeGreaterThan(0);
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
      const used = sourceFiles(path.dirname(path.dirname(dir))).flatMap((file) =>
        [...readFileSync(path.join(root, file), "utf8").matchAll(/\bt\(\s*"([\w.]+)"|i18nKey="([\w.]+)"/g)].map((m) => m[1] ?? m[2]!),
      );
      expect(used.length).toBeGreaterThan(0);
      expect(used.filter((key) => !(key in english))).toEqual([]);
    });
  }
});
