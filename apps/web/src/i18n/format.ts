import type { i18n as I18n } from "i18next";

/**
 * The catalogues' ICU messages, formatted without shipping the ICU parser to the sign-in page (ADR 74).
 * A message that is plain text with `{name}` arguments (every message the signed-out screens have) is
 * formatted here exactly as intl-messageformat would; one with anything more (plural, select, number,
 * date, a quoted brace) goes to i18next-icu, whose chunk loads when a catalogue holding such a message
 * loads (`needsIcu`, `loadIcu`), before its words are shown.
 */

/** Plain text, where an apostrophe quotes nothing (ICU quotes with `'` before `{ } ' # < > |`). */
const TEXT = String.raw`(?:[^{}']|'(?![{}'#<>|]))*`;
/** Text and bare `{argument}`s only: what the formatter below handles without ICU. */
const PLAIN = new RegExp(String.raw`^${TEXT}(?:\{\s*[A-Za-z_]\w*\s*\}${TEXT})*$`);
const ARGUMENT = /\{\s*([A-Za-z_]\w*)\s*\}/g;

/** What intl-messageformat puts for a bare argument's value; `null` for one it keeps as a part (an element). */
const asText = (value: unknown): string | null => {
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint") return String(value);
  return value === undefined || value === null || value === false ? "" : null;
};

export const needsIcu = (message: string): boolean => !PLAIN.test(message);

/** Whether any message of a catalogue (nested groups) needs the ICU formatter. */
export const catalogueNeedsIcu = (catalogue: unknown): boolean =>
  typeof catalogue === "string" ? needsIcu(catalogue) : typeof catalogue === "object" && catalogue !== null && Object.values(catalogue).some(catalogueNeedsIcu);

/** i18next-icu's instance as i18next calls it (its published type leaves `parse` out). */
interface IcuFormat {
  init(i18next: I18n, options: object): void;
  parse(message: string, values: object, lng: string, ns: string, key: string, info: unknown): unknown;
}

let icu: IcuFormat | null = null;
let icuLoading: Promise<void> | null = null;
let instance: I18n | null = null;

/** i18next-icu, once; the screens re-render (react-i18next's `bindI18n` names this event) when it comes late. */
export const loadIcu = (): Promise<void> => {
  icuLoading ??= import("i18next-icu").then(({ default: Icu }) => {
    icu = new Icu() as unknown as IcuFormat;
    if (instance) {
      icu.init(instance, {});
      instance.emit("icuLoaded");
    }
  });
  return icuLoading;
};

/** i18next's `i18nFormat` module: plain messages here, the rest through i18next-icu. */
export const messageFormat = {
  type: "i18nFormat" as const,
  init(i18next: I18n) {
    instance = i18next;
    icu?.init(i18next, {});
  },
  parse(message: string, values: Record<string, unknown>, lng: string, ns: string, key: string, info: unknown): unknown {
    const names = needsIcu(message) ? null : [...message.matchAll(ARGUMENT)].map((m) => m[1] ?? "");
    if (!names || names.some((name) => name in values && asText(values[name]) === null)) {
      // A message or value past plain text (catalogues are checked on load; a default value or an element is not).
      if (icu) return icu.parse(message, values, lng, ns, key, info);
      void loadIcu();
      return message;
    }
    // intl-messageformat throws on a missing value, and i18next-icu then shows the message as written.
    if (names.some((name) => !(name in values))) return message;
    return message.replace(ARGUMENT, (_, name: string) => asText(values[name]) ?? "");
  },
  // ICU messages hold their own plural and select forms: no suffixed keys to look up (as i18next-icu).
  addLookupKeys: (finalKeys: string[]) => finalKeys,
};
