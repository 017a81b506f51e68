import { fill, type Language } from "../../shared/i18n.ts";

/**
 * What the server writes to a user outside an answer's `message`: the bell's notifications, the
 * reminders, the reviewers' quality reasons and the analysis notes printed in the PDF. A notification
 * is stored with its key and parameters and rendered in the reader's language when read; the English
 * is the text as it was always written (`{name}` placeholders, core's `fill`).
 */
export const NOTICES_EN = {
  accountApproved: "Your account has been approved. Welcome to Crown!",
  reportPublished: "The head-shape report of {baby} is ready.",
  recaptureRequested: "A new capture of {baby} is needed: {reasons}.",
  invitationAcceptedBaby: "{name} accepted the invitation for {baby}.",
  invitationAcceptedStaff: "{name} ({email}) accepted your invitation and joined your staff.",
  patientLinkRequested: "{doctor} asks to add {baby} to your account.",
  staffLinkRequested: "{doctor} asks you to join their staff.",
  patientLinkAccepted: "{name} accepted to add {baby} to their account.",
  staffLinkAccepted: "{name} ({email}) accepted and joined your staff.",
  patientLinkDeclined: "The caregiver you asked declined to add {baby} to their account; nothing was linked.",
  patientLinkDeclinedUnnamed: "The caregiver you asked declined to add a patient to their account; nothing was linked.",
  staffLinkDeclined: "{email} declined to join your staff.",
} as const;

export type NoticeKey = keyof typeof NOTICES_EN;

export const NOTICES_ES: { readonly [K in NoticeKey]: string } = {
  accountApproved: "Su cuenta fue aprobada. ¡Le damos la bienvenida a Crown!",
  reportPublished: "El informe de la forma de la cabeza de {baby} está listo.",
  recaptureRequested: "Se necesita una captura nueva de {baby}: {reasons}.",
  invitationAcceptedBaby: "{name} aceptó la invitación para {baby}.",
  invitationAcceptedStaff: "{name} ({email}) aceptó su invitación y se unió a su personal.",
  patientLinkRequested: "{doctor} pide agregar a {baby} a su cuenta.",
  staffLinkRequested: "{doctor} le pide que se una a su personal.",
  patientLinkAccepted: "{name} aceptó agregar a {baby} a su cuenta.",
  staffLinkAccepted: "{name} ({email}) aceptó y se unió a su personal.",
  patientLinkDeclined: "El cuidador al que usted se lo pidió no aceptó agregar a {baby} a su cuenta; no se vinculó nada.",
  patientLinkDeclinedUnnamed: "El cuidador al que usted se lo pidió no aceptó agregar a un paciente a su cuenta; no se vinculó nada.",
  staffLinkDeclined: "{email} no aceptó unirse a su personal.",
};

/** The reminders of `GET /reminders`, in the caller's language. */
export const REMINDERS_EN = {
  baa: "Please sign the Business Associate Agreement.",
  disclaimer: "Please read and accept the Disclaimer.",
  quiz: "Please take the quiz before your first scan (it takes less than 5 minutes).",
  scanDue: "The monthly head scan of {baby} is due (month {month} of 7).",
} as const;

export const REMINDERS_ES: { readonly [K in keyof typeof REMINDERS_EN]: string } = {
  baa: "Firme el Acuerdo de Asociado Comercial (BAA).",
  disclaimer: "Lea y acepte el Aviso legal.",
  quiz: "Responda el cuestionario antes de la primera captura (toma menos de 5 minutos).",
  scanDue: "Ya toca la captura mensual de la cabeza de {baby} (mes {month} de 7).",
};

/**
 * The reviewers' reasons for a new capture (English: the reasons themselves, QUALITY_REASONS in
 * core/src/measurement/verdict.ts; this folder imports only shared/, so the parity test holds the keys).
 */
export const QUALITY_REASONS_ES: Readonly<Record<string, string>> = {
  "Image is blurry": "La imagen está borrosa",
  "No nose visible": "No se ve la nariz",
  "Head contour is incomplete (obstructed by hand, finger, or outside the frame)":
    "El contorno de la cabeza está incompleto (tapado por una mano o un dedo, o fuera del encuadre)",
  "Head is tilted (cheek asymmetry)": "La cabeza está inclinada (mejillas asimétricas)",
  "Too much of the face is present (head tilted back)": "Se ve demasiado la cara (cabeza inclinada hacia atrás)",
  "Hair artifact present": "El cabello interfiere en la imagen",
  "Head tilted to the left or right": "La cabeza está inclinada hacia la izquierda o la derecha",
  "No nose, back view": "No se ve la nariz (vista desde atrás)",
};

/** The notes the automatic analysis writes on a report (English: ANALYSIS_PROBLEMS in core/src/report/requests.ts). */
export const ANALYSIS_NOTES_EN = {
  noModel: "The head-contour model is not installed on the server, so no photo was measured automatically.",
  unreadable: "{name}: the file could not be read as an image.",
  noAccepted: "No photo passed the automatic quality check.",
  noFrames: "{name}: frames could not be taken from the video ({why}). The video is kept for review.",
  noFfmpeg: "Videos were not analysed: {why}. The videos are kept for review.",
  failed: "The automatic analysis failed after several attempts; please review the photos by hand: {reason}",
} as const;

export const ANALYSIS_NOTES_ES: { readonly [K in keyof typeof ANALYSIS_NOTES_EN]: string } = {
  noModel: "El modelo del contorno de la cabeza no está instalado en el servidor, así que no se midió ninguna foto automáticamente.",
  unreadable: "{name}: no se pudo leer el archivo como imagen.",
  noAccepted: "Ninguna foto pasó el control de calidad automático.",
  noFrames: "{name}: no se pudieron tomar imágenes del video ({why}). El video se conserva para la revisión.",
  noFfmpeg: "No se analizaron los videos: {why}. Los videos se conservan para la revisión.",
  failed: "El análisis automático falló después de varios intentos; revise las fotos a mano: {reason}",
};

/** Reasons given inside an analysis note that Crown itself writes (others, e.g. ffmpeg's, stay as given). */
const WHY_ES: Readonly<Record<string, string>> = {
  "the file is missing": "falta el archivo",
  "no frame could be measured": "no se pudo medir ninguna imagen",
};

/** The parameters of a stored notice: plain values, or the list of quality reasons. */
export type NoticeParams = Readonly<Record<string, string | ReadonlyArray<string>>>;

/** A reason in a language (a reason Crown does not know stays as given). */
export const qualityReasonIn = (language: Language, reason: string): string =>
  language === "es" ? QUALITY_REASONS_ES[reason] ?? reason : reason;

/** "a; b" in a language: how a notice and the recapture e-mail list the reasons. */
export const reasonsIn = (language: Language, reasons: ReadonlyArray<string>): string => reasons.map((r) => qualityReasonIn(language, r)).join("; ");

const NOTICES: Readonly<Record<Language, { readonly [K in NoticeKey]: string }>> = { en: NOTICES_EN, es: NOTICES_ES };
const REMINDERS: Readonly<Record<Language, { readonly [K in keyof typeof REMINDERS_EN]: string }>> = { en: REMINDERS_EN, es: REMINDERS_ES };

/** A notification's text in a language; a list parameter is the reasons, translated and joined. */
export const noticeText = (language: Language, key: NoticeKey, params: NoticeParams): string =>
  fill(
    NOTICES[language][key],
    Object.fromEntries(Object.entries(params).map(([name, value]) => [name, typeof value === "string" ? value : reasonsIn(language, value)])),
  );

export const reminderText = (language: Language, key: keyof typeof REMINDERS_EN, params: Readonly<Record<string, string | number>> = {}): string =>
  fill(REMINDERS[language][key], params);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const notePatterns = Object.entries(ANALYSIS_NOTES_EN).map(([key, text]) => {
  const names = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return { key: key as keyof typeof ANALYSIS_NOTES_EN, names, pattern: new RegExp(`^${text.split(/\{\w+\}/).map(escape).join("(.+?)")}$`, "s") };
});

/**
 * An analysis note (stored in English on the report) in a language: found by its English template,
 * then filled in the language's words. A note Crown does not know stays as written.
 */
export const analysisNoteIn = (language: Language, note: string): string => {
  if (language === "en") return note;
  for (const { key, names, pattern } of notePatterns) {
    const match = pattern.exec(note);
    if (!match) continue;
    const params = Object.fromEntries(names.map((name, i) => [name, name === "why" ? WHY_ES[match[i + 1]!] ?? match[i + 1]! : match[i + 1]!]));
    return fill(ANALYSIS_NOTES_ES[key], params);
  }
  return note;
};
