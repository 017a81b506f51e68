/**
 * The languages Crown speaks, and how one is chosen. Plain data and functions: the browser, the
 * server and core share them; the message catalogues are in `core/src/i18n` (ADR 76).
 */

export const LANGUAGES = ["en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
/** English is the source language: its messages are the spec's, and what any unknown language gets. */
export const DEFAULT_LANGUAGE: Language = "en";

export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { en: "English", es: "Español" };

export const isLanguage = (value: unknown): value is Language => typeof value === "string" && (LANGUAGES as ReadonlyArray<string>).includes(value);

/** The language an `Accept-Language` header prefers among Crown's (by q-value, then order), or the default. */
export const languageFromAcceptLanguage = (header: string | null | undefined): Language => {
  if (!header) return DEFAULT_LANGUAGE;
  const ranked = header
    .slice(0, 512)
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { base: tag.trim().toLowerCase().split("-")[0] ?? "", weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked.map((r) => r.base).find(isLanguage) ?? DEFAULT_LANGUAGE;
};

/** Fills `{name}` placeholders: how core writes its English templates (other languages use ICU through i18next). */
export const fill = (template: string, params: Readonly<Record<string, string | number>>): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
