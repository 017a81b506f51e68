import { DEFAULT_LANGUAGE, isLanguage, type Language, languageFromAcceptLanguage } from "@crown/core/shared/i18n";
import { withLanguage } from "@crown/client/address";

/**
 * The portal's language (ADR 78): the one chosen on this browser (the switcher), else the browser's
 * languages on the first visit. Kept apart from i18next so the API client can name its prefix cheaply.
 */

const STORAGE_KEY = "crown.language";

const stored = (): Language | null => {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
};

const fromBrowser = (): Language =>
  typeof navigator === "undefined" ? DEFAULT_LANGUAGE : languageFromAcceptLanguage((navigator.languages ?? [navigator.language]).join(","));

let current: Language = typeof window === "undefined" ? DEFAULT_LANGUAGE : (stored() ?? fromBrowser());
const listeners = new Set<(language: Language) => void>();

export const currentLanguage = (): Language => current;

/** Remembers the choice on this browser and tells whoever renders text. */
export const chooseLanguage = (language: Language) => {
  current = language;
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Private mode: the choice lasts for this page.
  }
  document.documentElement.lang = language;
  for (const listener of listeners) listener(language);
};

export const onLanguageChange = (listener: (language: Language) => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The API in the portal's language: the server answers its messages in it, and a sign-up takes it (ADR 76, 77). */
export const apiBase = (base: string): string => withLanguage(base, current);
