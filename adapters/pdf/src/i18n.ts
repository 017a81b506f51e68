import { bandLabel } from "@crown/core/i18n/bands";
import { bandOf, CI_BANDS, type SeverityBand, CVAI_BANDS } from "@crown/core/measurement/bands";
import { REPORT_DISCLAIMER } from "@crown/core/report/policy";
import { formatUsDate } from "@crown/core/shared/dates";
import { fill, type Language } from "@crown/core/shared/i18n";
import { IntlMessageFormat } from "intl-messageformat";

/**
 * The PDF's words in each language (ICU messages, rendered by intl-messageformat, the formatter under
 * i18next-icu), its dates and numbers by `Intl` (ADR 77). The English is the report as it always read.
 */
const EN = {
  docSubject: "Infant head-shape screening",
  title: "Head shape screening report",
  previewMark: "PREVIEW: not published, for the reviewer only",
  previewOf: "Preview of version {version}, rendered {date}",
  versionOf: "Version {version}, published {date}",
  baby: "Baby",
  name: "Name",
  dateOfBirth: "Date of birth",
  ageAtCapture: "Age at capture",
  age: "{months} {months, plural, one {month} other {months}} {days} {days, plural, one {day} other {days}}",
  unknown: "unknown",
  capturedOn: "Captured on",
  provider: "Provider",
  noPhysician: "No Physician",
  reviewedBy: "Reviewed by",
  results: "Results",
  ciTitle: "Cranial Index (CI)",
  cvaiTitle: "Cranial Vault Asymmetry Index (CVAI)",
  cvaMm: "CVA (mm)",
  spread: "{median} (range {min} to {max}, {count} {count, plural, one {photo} other {photos}})",
  notMeasured: "not measured",
  notAvailable: "n/a",
  ciBands: "CI bands: {bands}.",
  cvaiLevels: "CVAI levels: {bands}.",
  reviewerNote: "Reviewer's note",
  analysisNotes: "Notes from the analysis",
  overTime: "Over time",
  cvai: "CVAI",
  captureDate: "Capture date",
  shading: "Shading: the severity bands listed above, lightest for the typical range.",
  important: "Important",
  acceptedPhotos: "Accepted photos",
  videoFrame: "Video frame {seconds} s",
  disagreeTitle: "The photos of this session disagree",
  disagreeChecked: "A reviewer accepted or rejected each photo. ",
  disagreeUnchecked: "Not every photo has been checked by a reviewer yet. ",
  disagreeMedian: "The figures above are the median of the photos kept; a new capture may give a clearer picture.",
  disclaimer: REPORT_DISCLAIMER,
} as const;

type PdfKey = keyof typeof EN;

const ES: Record<PdfKey, string> = {
  docSubject: "Evaluación de la forma de la cabeza del bebé",
  title: "Informe de evaluación de la forma de la cabeza",
  previewMark: "VISTA PREVIA: no publicada, solo para el revisor",
  previewOf: "Vista previa de la versión {version}, generada el {date}",
  versionOf: "Versión {version}, publicada el {date}",
  baby: "Bebé",
  name: "Nombre",
  dateOfBirth: "Fecha de nacimiento",
  ageAtCapture: "Edad en la captura",
  age: "{months} {months, plural, one {mes} other {meses}} y {days} {days, plural, one {día} other {días}}",
  unknown: "desconocida",
  capturedOn: "Fecha de captura",
  provider: "Proveedor de salud",
  noPhysician: "Sin médico",
  reviewedBy: "Revisado por",
  results: "Resultados",
  ciTitle: "Índice cefálico (IC)",
  cvaiTitle: "Índice de asimetría de la bóveda craneal (CVAI)",
  cvaMm: "CVA (mm)",
  spread: "{median} (de {min} a {max}, {count} {count, plural, one {foto} other {fotos}})",
  notMeasured: "sin medir",
  notAvailable: "no disponible",
  ciBands: "Rangos del IC: {bands}.",
  cvaiLevels: "Niveles del CVAI: {bands}.",
  reviewerNote: "Nota del revisor",
  analysisNotes: "Notas del análisis",
  overTime: "Evolución",
  cvai: "CVAI",
  captureDate: "Fecha de captura",
  shading: "Sombreado: los rangos de gravedad indicados arriba; el más claro es el rango típico.",
  important: "Importante",
  acceptedPhotos: "Fotos aceptadas",
  videoFrame: "Imagen del video {seconds} s",
  disagreeTitle: "Las fotos de esta sesión no coinciden",
  disagreeChecked: "Un revisor aceptó o rechazó cada foto. ",
  disagreeUnchecked: "Un revisor todavía no ha revisado todas las fotos. ",
  disagreeMedian: "Las cifras de arriba son la mediana de las fotos conservadas; una nueva captura puede dar una imagen más clara.",
  disclaimer:
    "Este informe es una herramienta de detección calculada a partir de fotos. No es un diagnóstico ni reemplaza el examen de un médico. " +
    "Hable con el médico de su bebé sobre estos resultados y sobre cualquier inquietud acerca de la forma de su cabeza.",
};

export const PDF_CATALOGUES: Readonly<Record<Language, Readonly<Record<PdfKey, string>>>> = { en: EN, es: ES };

/**
 * The sources of the severity bands, under the disclaimer. English prints core's SEVERITY_CITATION as
 * it always read; other languages this, the article's title kept as published.
 */
const CITATIONS: Readonly<Record<Exclude<Language, "en">, string>> = {
  es:
    "Niveles del CVAI: escala de gravedad de la plagiocefalia de Children's Healthcare of Atlanta (Holowka MA et al., " +
    "Plagiocephaly Severity Scale to Aid in Clinical Treatment Recommendations, Plast Reconstr Surg Glob Open 2017;5(3):e1262). " +
    "Rangos del IC: {ranges}. Herramienta de detección a partir de fotos, no un diagnóstico.",
};
const LOCALES: Readonly<Record<Language, string>> = { en: "en-US", es: "es-US" };

/** The words, dates and numbers of one PDF. */
export const pdfText = (language: Language = "en") => {
  const locale = LOCALES[language];
  const formats = new Map<PdfKey, IntlMessageFormat>();
  const t = (key: PdfKey, values?: Record<string, string | number>): string => {
    let format = formats.get(key);
    if (!format) formats.set(key, (format = new IntlMessageFormat(PDF_CATALOGUES[language][key], locale)));
    return String(format.format(values));
  };
  const numbers = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false });
  const long = new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  const toDate = (d: Date | string) => (typeof d === "string" ? new Date(`${d.slice(0, 10)}T00:00:00Z`) : d);
  return {
    language,
    t,
    /** English keeps the portal's MM/DD/YYYY; Spanish writes the month out (no day/month order to misread). */
    day: (d: Date | string) => (language === "en" ? formatUsDate(d) : long.format(toDate(d))),
    number: (n: number | null | undefined) => (n === null || n === undefined ? t("notAvailable") : numbers.format(n)),
    /** The sources: core's English as it is, another language's with the CI ranges written in it. */
    citation: (english: string, ranges: string) => (language === "en" ? english : fill(CITATIONS[language], { ranges })),
    // The bands' words are core's (catalogue group `bands`), as the portal reads them.
    bandLabel: (b: SeverityBand) => bandLabel(b, language),
    ciBand: (median: number) => bandLabel(bandOf(median, CI_BANDS), language),
    cvaiBand: (median: number) => bandLabel(bandOf(median, CVAI_BANDS), language),
  };
};
export type PdfText = ReturnType<typeof pdfText>;
