import type { Language } from "../shared/i18n.ts";
import { EN } from "./en.ts";

/**
 * Finds the catalogue key of an English message core answered with, and renders it in another
 * language through `lookup` (the adapters' i18next). English text is never touched: the English
 * catalogue is the message constants themselves, so `en` answers stay byte for byte the spec's (ADR 76).
 */

/** Renders a catalogue key with its parameters in one language (i18next's `t` in the adapters). */
export type Lookup = (key: string, params: Readonly<Record<string, string>>) => string;

export interface ResolvedMessage {
  readonly key: string;
  readonly params: Readonly<Record<string, string>>;
}

/** Parameters that are themselves catalogue words: a field's label, the thing not found. */
const WORD_GROUPS: Readonly<Record<string, WordGroup>> = { label: "labels", what: "things", status: "reportStatuses" };
type WordGroup = "labels" | "things" | "reportStatuses";
/** Groups that are words for parameters, not messages. */
const NOT_MESSAGES = new Set<string>(["labels", "things", "reportStatuses"]);

const entries = Object.entries(EN).flatMap(([group, messages]) =>
  NOT_MESSAGES.has(group) ? [] : Object.entries(messages as Record<string, string>).map(([name, text]) => ({ key: `${group}.${name}`, text })),
);

const exact = new Map<string, string>();
for (const { key, text } of entries) if (!text.includes("{") && !exact.has(text)) exact.set(text, key);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const templates = entries
  .filter(({ text }) => /\{\w+\}/.test(text))
  .map(({ key, text }) => {
    const names = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const pattern = new RegExp(`^${text.split(/\{\w+\}/).map(escape).join("(.+?)")}$`, "s");
    return { key, names, pattern };
  });

const wordKeys = (group: WordGroup) => new Map(Object.entries(EN[group]).map(([name, text]) => [text as string, `${group}.${name}`]));
const WORDS = { labels: wordKeys("labels"), things: wordKeys("things"), reportStatuses: wordKeys("reportStatuses") };

/** The key (and the template's filled-in values) of an English message, or null when it is none of core's. */
export const resolveMessage = (text: string): ResolvedMessage | null => {
  const key = exact.get(text);
  if (key) return { key, params: {} };
  for (const template of templates) {
    const match = template.pattern.exec(text);
    if (match) return { key: template.key, params: Object.fromEntries(template.names.map((name, i) => [name, match[i + 1]!])) };
  }
  return null;
};

/** "a, b or c" (how `OneOf` lists its values) as the language's own list ("a, b o c"). */
const relist = (values: string, language: Language) => {
  const items = values.split(/, | or /);
  return items.length > 1 ? new Intl.ListFormat(language, { type: "disjunction" }).format(items) : values;
};

/** The message in `language`: English as given; another language by its catalogue, or as given when core has no key for it. */
export const localizeMessage = (text: string, language: Language, lookup: Lookup): string => {
  if (language === "en") return text;
  const resolved = resolveMessage(text);
  if (!resolved) return text;
  const params = Object.fromEntries(
    Object.entries(resolved.params).map(([name, value]) => {
      const group = WORD_GROUPS[name];
      const word = group ? WORDS[group].get(value) : undefined;
      if (word) return [name, lookup(word, {})];
      return [name, name === "values" ? relist(value, language) : value];
    }),
  );
  return lookup(resolved.key, params);
};
