import { DEFAULT_LANGUAGE, type Language, languageFromAcceptLanguage } from "@crown/core/shared/i18n";
import { DEFAULT_API_BASE, withLanguage } from "@crown/client/address";

/**
 * The kiosk's languages (ADR 88). The tablet's default is the device's: its browser's languages, English
 * unless they say Spanish. A session may pick another (core's kiosk machine holds it and drops it when the
 * session ends); the one shown is kept here too, without i18next, so the API client can name its prefix.
 * Nothing is stored on the tablet: a new page starts in the default.
 */

export const deviceLanguage = (): Language =>
  typeof navigator === "undefined" ? DEFAULT_LANGUAGE : languageFromAcceptLanguage((navigator.languages ?? [navigator.language]).join(","));

let shown: Language = deviceLanguage();

export const shownLanguage = (): Language => shown;
export const setShownLanguage = (language: Language) => {
  shown = language;
};

/** The API in the language on screen: the server answers its messages in it (ADR 76). */
export const apiBase = (): string => withLanguage(DEFAULT_API_BASE, shown);
