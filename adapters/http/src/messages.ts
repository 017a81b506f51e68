import { BODY_MESSAGES } from "./body-policy.ts";
import { BUSY_MESSAGE } from "./load-shedding.ts";

/** The HTTP adapter's own answers (not a use case's): the English source of its catalogue (ADR 76). */
export const HTTP_MESSAGES = {
  notFound: "Not found",
  failed: "Something went wrong. Please try again.",
  jsonObject: "The request body must be a JSON object.",
  chatTooLarge: "A message with its images must be at most 40 MB.",
  sessionEnded: "Your session has ended. Please sign in again.",
  config: "Configuration fetched successfully",
} as const;

export const HTTP_EN = { ...HTTP_MESSAGES, ...BODY_MESSAGES, busy: BUSY_MESSAGE } as const;

/** The same answers in Spanish (ICU syntax); the type asks for every key. */
export const HTTP_ES: { readonly [K in keyof typeof HTTP_EN]: string } = {
  notFound: "No se encontró",
  failed: "Algo salió mal. Vuelva a intentarlo.",
  jsonObject: "El cuerpo de la solicitud debe ser un objeto JSON.",
  chatTooLarge: "Un mensaje con sus imágenes debe pesar como máximo 40 MB.",
  sessionEnded: "Su sesión terminó. Vuelva a iniciar sesión.",
  config: "Configuración obtenida correctamente",
  tooLarge: "El cuerpo de la solicitud es demasiado grande.",
  unsupportedType: "Esta llamada acepta un cuerpo JSON (application/json).",
  busy: "Crown está muy ocupado en este momento. Vuelva a intentarlo en un momento.",
};
