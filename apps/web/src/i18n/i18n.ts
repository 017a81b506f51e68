import type { Catalogue } from "@crown/core/i18n/en";
import type { Language } from "@crown/core/shared/i18n";
import i18next, { type BackendModule } from "i18next";
import { type ComponentType, lazy } from "react";
import { initReactI18next } from "react-i18next";
import { catalogueNeedsIcu, loadIcu, messageFormat } from "./format.ts";
import { chooseLanguage, currentLanguage, onLanguageChange } from "./language.ts";

/**
 * The portal's i18next (ICU messages, react-i18next; ADR 78). The words are `locales/<language>/<area>.json`,
 * one namespace per area of the portal and one chunk each: `common` (the signed-out screens, the layout)
 * loads at start, every other area with the route that shows it (`pageWith`), so the sign-in page carries
 * no other screen's words. Core's messages (the browser's own validation) come with Spanish `common`.
 * The ICU parser loads only for a catalogue with a message past plain `{name}` arguments (ADR 74).
 */

let coreSpanish: Catalogue | null = null;
// Core's reverse index imports every feature's messages (and Effect's Schema with them): only the Spanish chunk loads it.
let localize: typeof import("@crown/core/i18n/localize").localizeMessage | null = null;

const catalogues = import.meta.glob<{ default: Record<string, unknown> }>("./locales/*/*.json");

const readCatalogue = async (language: string, namespace: string): Promise<Record<string, unknown>> => {
  const load = catalogues[`./locales/${language}/${namespace}.json`];
  if (!load) throw new Error(`No ${language} catalogue named ${namespace}`);
  const [catalogue] = await Promise.all([
    load().then((m) => m.default),
    language === "es" && namespace === "common"
      ? Promise.all([import("@crown/core/i18n/es/index"), import("@crown/core/i18n/localize")]).then(([core, localizer]) => {
          coreSpanish = core.ES;
          localize = localizer.localizeMessage;
        })
      : null,
  ]);
  // Its messages are formatted before they are shown: the ICU formatter comes first if one needs it.
  if (catalogueNeedsIcu(catalogue)) await loadIcu();
  return catalogue;
};

/** i18next reads each (language, area) once, and again in a newly chosen language for every area already shown. */
const chunks: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, done) {
    readCatalogue(language, namespace).then(
      (catalogue) => done(null, catalogue),
      (error: Error) => done(error, false),
    );
  },
};

/** Starts i18next in the portal's language; the page renders once its words are here. */
export const startI18n = async () => {
  const language = currentLanguage();
  await i18next.use(chunks).use(messageFormat).use(initReactI18next).init({
    lng: language,
    // The fallback (English) loads beside another language, for a key a newer screen may lack.
    fallbackLng: "en",
    ns: ["common"],
    defaultNS: "common",
    interpolation: { escapeValue: false },
    react: { useSuspense: false, bindI18n: "languageChanged loaded icuLoaded" },
    returnNull: false,
  });
  document.documentElement.lang = language;
  onLanguageChange((next) => void i18next.changeLanguage(next));
};

/** Switches the portal (and, through the API prefix, the server's answers). */
export const switchLanguage = async (language: Language) => {
  await i18next.loadLanguages(language);
  chooseLanguage(language);
};

/** A lazily loaded screen whose words (its areas' catalogues) arrive with its code, so it never shows a key. */
export const pageWith = <P extends object>(namespaces: string[], code: () => Promise<{ default: ComponentType<P> }>) =>
  lazy(() => Promise.all([code(), i18next.loadNamespaces(namespaces)]).then(([module]) => module));

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
