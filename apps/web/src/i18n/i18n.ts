import type { Catalogue } from "@crown/core/i18n/en";
import type { Language } from "@crown/core/shared/i18n";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { catalogueNeedsIcu, loadIcu, messageFormat } from "./format.ts";
import { chooseLanguage, currentLanguage, onLanguageChange } from "./language.ts";

/**
 * The portal's i18next (ICU messages, react-i18next; ADR 78). The screens' catalogues are
 * `locales/<language>.json`, one chunk each, loaded when the language is first shown; core's
 * messages (the browser's own validation) come with the Spanish chunk. The ICU parser loads only
 * for a catalogue with a message past plain `{name}` arguments (`format.ts`, ADR 74).
 */

const loaded = new Set<Language>();
let coreSpanish: Catalogue | null = null;
// Core's reverse index imports every feature's messages (and Effect's Schema with them): only the Spanish chunk loads it.
let localize: typeof import("@crown/core/i18n/localize").localizeMessage | null = null;

const loaders: Record<Language, () => Promise<Record<string, unknown>>> = {
  en: () => import("./locales/en.json").then((m) => m.default),
  es: async () => {
    const [screens, core, localizer] = await Promise.all([import("./locales/es.json"), import("@crown/core/i18n/es/index"), import("@crown/core/i18n/localize")]);
    coreSpanish = core.ES;
    localize = localizer.localizeMessage;
    return screens.default;
  },
};

const load = async (language: Language) => {
  if (loaded.has(language)) return;
  const catalogue = await loaders[language]();
  // Its messages are formatted before they are shown: the ICU formatter comes first if one needs it.
  if (catalogueNeedsIcu(catalogue)) await loadIcu();
  i18next.addResourceBundle(language, "translation", catalogue, true, true);
  loaded.add(language);
};

/** Starts i18next in the portal's language; the page renders once its words are here. */
export const startI18n = async () => {
  const language = currentLanguage();
  await i18next.use(messageFormat).use(initReactI18next).init({
    lng: language,
    fallbackLng: "en",
    resources: {},
    interpolation: { escapeValue: false },
    react: { useSuspense: false, bindI18n: "languageChanged icuLoaded" },
    returnNull: false,
  });
  await load(language);
  document.documentElement.lang = language;
  onLanguageChange((next) => {
    void load(next).then(() => i18next.changeLanguage(next));
  });
  // The fallback (English) comes after, for a key a newer screen may lack.
  if (language !== "en") void load("en");
};

/** Switches the portal (and, through the API prefix, the server's answers). */
export const switchLanguage = async (language: Language) => {
  await load(language);
  chooseLanguage(language);
};

/** A message core wrote in English (the browser's own validation) in the portal's language; the server's are already in it. */
export const uiMessage = (text: string): string => {
  const language = currentLanguage();
  if (language === "en" || !coreSpanish || !localize) return text;
  const spanish = coreSpanish as unknown as Record<string, Record<string, string>>;
  return localize(text, language, (key, params) => {
    const [group = "", name = ""] = key.split(".");
    const template = spanish[group]?.[name] ?? text;
    return template.replace(/\{(\w+)\}/g, (whole, p: string) => params[p] ?? whole);
  });
};
