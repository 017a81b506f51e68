import type { Language } from "./i18n.ts";

/** The `Intl` locale of each language Crown speaks (US clinics: Spanish as written in the US). */
export const LOCALES: Readonly<Record<Language, string>> = { en: "en-US", es: "es-US" };

const asDate = (value: string | Date): Date => (typeof value === "string" ? new Date(value.length === 10 ? `${value}T00:00:00` : value) : value);

/**
 * MM/DD/YYYY, the one way Crown writes a date in English (spec: "Uploaded on date (MM/DD/YYYY)"), in the
 * portal and in the PDF alike. A YYYY-MM-DD day is that day; a moment is shown in the time zone of whoever
 * formats it (the browser's; the server's for the PDF). Anything unreadable is returned as given.
 */
export const formatUsDate = (value?: string | Date | null): string => {
  if (value === null || value === undefined || value === "") return "";
  const d = asDate(value);
  if (Number.isNaN(d.getTime())) return typeof value === "string" ? value : "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getMonth() + 1)}/${p(d.getDate())}/${d.getFullYear()}`;
};

const formatters = new Map<string, Intl.DateTimeFormat>();
const formatter = (language: Language, options: Intl.DateTimeFormatOptions) => {
  const key = `${language}${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(LOCALES[language], options)));
  return f;
};

const format = (value: string | Date | null | undefined, language: Language, options: Intl.DateTimeFormatOptions, english: (d: string | Date) => string) => {
  if (value === null || value === undefined || value === "") return "";
  if (language === "en") return english(value);
  const d = asDate(value);
  return Number.isNaN(d.getTime()) ? (typeof value === "string" ? value : "") : formatter(language, options).format(d);
};

/** A day in the language's short form: English MM/DD/YYYY (unchanged), Spanish DD/MM/YYYY. */
export const formatDay = (value: string | Date | null | undefined, language: Language): string =>
  format(value, language, { day: "2-digit", month: "2-digit", year: "numeric" }, formatUsDate);

/** A day with its month's name: "04 March 2026" in English (unchanged), "4 de marzo de 2026" in Spanish. */
export const formatLongDay = (value: string | Date | null | undefined, language: Language): string =>
  format(value, language, { day: "numeric", month: "long", year: "numeric" }, (v) => {
    const m = typeof v === "string" ? /^(\d{4})-(\d{2})-(\d{2})/.exec(v) : null;
    if (m) return `${m[3]} ${ENGLISH_MONTHS[Number(m[2]) - 1] ?? ""} ${m[1]}`;
    const d = asDate(v);
    return Number.isNaN(d.getTime()) ? String(v) : `${String(d.getDate()).padStart(2, "0")} ${ENGLISH_MONTHS[d.getMonth()]} ${d.getFullYear()}`;
  });

/** A moment with its time, in the language's way (the browser's time zone). */
export const formatMoment = (value: string | Date | null | undefined, language: Language): string =>
  format(value, language, { dateStyle: "short", timeStyle: "short" }, (v) => asDate(v).toLocaleString(LOCALES.en));

/** The hour and minute of a moment ("3:04 PM" in English), in the time zone of whoever formats it: tells two of one day apart. */
export const formatTimeOfDay = (value: string | Date | null | undefined, language: Language): string => {
  if (value === null || value === undefined || value === "") return "";
  const d = asDate(value);
  return Number.isNaN(d.getTime()) ? "" : formatter(language, { hour: "numeric", minute: "2-digit" }).format(d);
};

/** A month's name ("March", "marzo"). */
export const monthName = (month: number, language: Language): string => formatter(language, { month: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2000, month - 1, 1)));

const ENGLISH_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
