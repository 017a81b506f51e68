import i18next from "i18next";
import ICU from "i18next-icu";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { catalogueNeedsIcu, loadIcu, messageFormat, needsIcu } from "./format.ts";

// The signed-out screens' words: plain messages, so the sign-in page never loads the ICU parser. (Other areas may use plurals.)
const en = Object.values(import.meta.glob<unknown>("./locales/en/common.json", { eager: true, import: "default" }));
const es = Object.values(import.meta.glob<unknown>("./locales/es/common.json", { eager: true, import: "default" }));

/** The plain-message formatter must answer exactly as i18next-icu would (ADR 74). */

const strings = (catalogue: unknown): string[] =>
  typeof catalogue === "string" ? [catalogue] : Object.values(catalogue as object).flatMap(strings);

// Not memoized: every case here shares one key.
const icu = new ICU({ memoize: false });
icu.init(i18next.createInstance(), { memoize: false });
const viaIcu = (message: string, values: Record<string, unknown>) => (icu as unknown as typeof messageFormat).parse(message, values, "en", "translation", message, undefined);
const viaPlain = (message: string, values: Record<string, unknown>) => messageFormat.parse(message, values, "en", "translation", message, undefined);

describe("the portal's message format without ICU", () => {
  it("formats every catalogue message as ICU does, values or none", () => {
    const values = { year: 2026, provider: "Google", email: "a@b.test", role: "Parent" };
    for (const message of [...strings(en), ...strings(es)]) {
      expect(needsIcu(message), message).toBe(false);
      expect(viaPlain(message, values), message).toBe(viaIcu(message, values));
      expect(viaPlain(message, {}), message).toBe(viaIcu(message, {}));
    }
    expect(catalogueNeedsIcu(en)).toBe(false);
    expect(catalogueNeedsIcu(es)).toBe(false);
  });

  it("gives the same text for empty, zero, null and missing values, apostrophes and tags", () => {
    const cases: [string, Record<string, unknown>][] = [
      ["Hello {name}!", { name: "" }],
      ["{n} left", { n: 0 }],
      ["{n} left", { n: null }],
      ["{n} left", { n: false }],
      ["{ n } and {m}", { n: 1 }],
      ["Don't <b>{name}</b>", { name: "Ana" }],
      ["Baby's {a}{b}", { a: "x", b: 12.5 }],
    ];
    for (const [message, values] of cases) expect(viaPlain(message, values), message).toBe(viaIcu(message, values));
  });

  it("leaves plural, select, numbers and quoted braces to ICU, and knows a catalogue holding one", async () => {
    await loadIcu();
    for (const message of ["{n, plural, one {# baby} other {# babies}}", "{role, select, parent {P} other {O}}", "{n, number}", "Use '{braces}'", "It''s"]) {
      expect(needsIcu(message), message).toBe(true);
      expect(viaPlain(message, { n: 2, role: "parent" }), message).toBe(new IntlMessageFormat(message, "en", undefined, { ignoreTag: true }).format({ n: 2, role: "parent" }));
    }
    // Not valid ICU either: i18next-icu shows such a message as written.
    for (const message of ["{}", "{a b}"]) expect(needsIcu(message), message).toBe(true);
    expect(catalogueNeedsIcu({ group: { plain: "Hi {name}", counted: "{n, plural, other {#}}" } })).toBe(true);
  });
});
