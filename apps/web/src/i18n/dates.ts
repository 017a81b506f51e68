import { formatDay, formatLongDay, formatMoment, formatTimeOfDay, LOCALES } from "@crown/core/shared/dates";
import { currentLanguage } from "./language.ts";

/**
 * Dates in the portal's language (core's formatters, ADR 78): a screen that calls these from its render
 * re-renders on a language change through `useTranslation`. English stays MM/DD/YYYY.
 */
export const day = (value?: string | Date | null): string => formatDay(value, currentLanguage());
export const longDay = (value?: string | Date | null): string => formatLongDay(value, currentLanguage());
export const moment = (value?: string | Date | null): string => formatMoment(value, currentLanguage());
/** The hour and minute of a moment ("3:04 PM"; "15:04" in Spanish), in the browser's time zone. */
export const timeOfDay = (value?: string | Date | null): string => formatTimeOfDay(value, currentLanguage());
/** A number in the portal's language (a decimal comma in Spanish). */
export const number = (value: number, digits = 1): string =>
  new Intl.NumberFormat(currentLanguage() === "es" ? "es-US" : "en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(value);
/** A time of day: as the browser writes it in English (unchanged), in the language's way otherwise. */
export const time = (value: string | Date): string => {
  const language = currentLanguage();
  return language === "en" ? new Date(value).toLocaleTimeString() : new Date(value).toLocaleTimeString(LOCALES[language]);
};
