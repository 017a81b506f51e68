import { ES } from "@crown/core/i18n/es/index";
import { localizeMessage } from "@crown/core/i18n/localize";
import type { Language } from "@crown/core/shared/i18n";
import i18next from "i18next";
import ICU from "i18next-icu";
import { useLayoutEffect } from "react";
import { initReactI18next } from "react-i18next";
import { setShownLanguage, shownLanguage } from "./language.ts";

/**
 * The kiosk's i18next (ICU messages, react-i18next; ADR 76, 78, 88). The words are
 * `locales/<language>/<area>.json`, one namespace per area. They are bundled with the app: the kiosk is
 * one installed page with no load budget, and a language switched mid-session must show at once, without
 * a request (the network may be down). Core's Spanish messages are the `core` namespace, for what core
 * says in the browser (the patient form's checks, the frame hints during capture).
 */

const catalogues = import.meta.glob<Record<string, unknown>>("./locales/*/*.json", { eager: true, import: "default" });

const resources: Record<string, Record<string, Record<string, unknown>>> = { es: { core: ES as unknown as Record<string, unknown> } };
for (const [file, catalogue] of Object.entries(catalogues)) {
  const [, language = "", area = ""] = /^\.\/locales\/(\w+)\/(\w+)\.json$/.exec(file) ?? [];
  (resources[language] ??= {})[area] = catalogue;
}

void i18next
  .use(ICU)
  .use(initReactI18next)
  .init({
    lng: shownLanguage(),
    fallbackLng: "en",
    resources,
    ns: Object.keys(resources.en ?? {}),
    defaultNS: "common",
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    returnNull: false,
    // The resources are here: the first render already has its words.
    initAsync: false,
  });

/**
 * Shows `language`: the words, `<html lang>` and the API prefix. A layout effect, so the screens' own
 * effects (their first calls to the server) already use the new prefix, and no frame shows the old words.
 */
export const useShowLanguage = (language: Language) => {
  useLayoutEffect(() => {
    document.documentElement.lang = language;
    if (shownLanguage() === language && i18next.language === language) return;
    setShownLanguage(language);
    void i18next.changeLanguage(language);
  }, [language]);
};

/** A message core wrote in English (the browser's own checks, a frame hint) in the language on screen. */
export const coreText = (text: string): string =>
  localizeMessage(text, shownLanguage(), (key, params) => i18next.t(key, { ns: "core", lng: shownLanguage(), ...params }));

