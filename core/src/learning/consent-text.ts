import type { Language } from "../shared/i18n.ts";

/**
 * What a parent reads before choosing (issue 41): what is kept, without what, for how long, and what
 * a withdrawal does. The version is stored with each choice, so a later change of words is visible.
 * The retention period is the product's decision recorded in ADR 0136.
 */
export const CONSENT_TEXT_VERSION = "2026-11-28";
export const RETENTION_YEARS = 5;

export const CONSENT_TEXT: Readonly<Record<Language, { readonly title: string; readonly paragraphs: ReadonlyArray<string>; readonly grant: string; readonly decline: string }>> = {
  en: {
    title: "Help improve Crown's measurements",
    paragraphs: [
      "You can let Crown use {name}'s head photos to check and improve the model that measures them. This is optional, it is off until you choose, and {name}'s care is the same whatever you decide.",
      "What is kept: each photo a Crown reviewer has checked, with its EXIF data (camera, place, time) removed; the head outline and nose tip the reviewer confirmed; the measurements (CI, CVAI); the reviewer's decision and reason; and the model's own answer. Not kept: {name}'s name, date of birth, your name or e-mail, or any other identifier.",
      `For how long: until you withdraw, and at most ${RETENTION_YEARS} years after the photo was taken.`,
      "You can change your choice at any time in your profile. Withdrawing removes {name}'s photos from every set not yet used to train or check a model that has shipped; a model that has already shipped keeps what it learnt.",
    ],
    grant: "Yes, use {name}'s reviewed photos",
    decline: "No, do not use them",
  },
  es: {
    title: "Ayude a mejorar las mediciones de Crown",
    paragraphs: [
      "Puede permitir que Crown use las fotos de la cabeza de {name} para comprobar y mejorar el modelo que las mide. Es opcional, está desactivado hasta que usted elija, y la atención de {name} es la misma decida lo que decida.",
      "Qué se guarda: cada foto que un revisor de Crown ha comprobado, sin sus datos EXIF (cámara, lugar, hora); el contorno de la cabeza y la punta de la nariz que confirmó el revisor; las medidas (IC, CVAI); la decisión del revisor y su motivo; y la respuesta del propio modelo. No se guarda: el nombre de {name}, su fecha de nacimiento, su nombre o correo electrónico, ni ningún otro identificador.",
      `Durante cuánto tiempo: hasta que usted retire su consentimiento, y como máximo ${RETENTION_YEARS} años después de tomar la foto.`,
      "Puede cambiar su elección en cualquier momento en su perfil. Retirarlo elimina las fotos de {name} de todos los conjuntos que aún no se han usado para entrenar o comprobar un modelo ya publicado; un modelo ya publicado conserva lo que aprendió.",
    ],
    grant: "Sí, usen las fotos revisadas de {name}",
    decline: "No, no las usen",
  },
};
