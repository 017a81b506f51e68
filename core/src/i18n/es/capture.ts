import type { Catalogue } from "../en.ts";

/** Spanish: the photo-quality reasons (live capture, the quiz), the quiz's words and the severity bands (ICU syntax). */
export const ES_CAPTURE = {
  reasons: {
    blurry: "La imagen está borrosa",
    noNose: "No se ve la nariz",
    incomplete: "El contorno de la cabeza está incompleto (lo tapa una mano o un dedo, o queda fuera de la imagen)",
    tilted: "La cabeza está inclinada (las mejillas no se ven iguales)",
    tooMuchFace: "Se ve demasiado la cara (la cabeza está inclinada hacia atrás)",
    hair: "El cabello altera el contorno de la cabeza",
    tiltedSideways: "La cabeza está inclinada hacia la izquierda o hacia la derecha",
    backView: "No se ve la nariz (vista desde atrás)",
  },
  quizTexts: {
    correct: "¡Correcto!",
    saidGoodOnBad: "No exactamente: esta imagen no sirve para hacer una medición.",
    saidBadOnGood: "No exactamente: esta imagen sí sirve para hacer una medición.",
    goodCap: "Imagen buena: se ve todo el contorno de la cabeza, solo se ve la punta de la nariz y la foto está nítida.",
    goodNocap:
      "Imagen buena: el cabello mojado está bien aplanado, se ve todo el contorno de la cabeza, solo se ve la punta de la nariz y la foto está nítida.",
  },
  // The severity bands (the PDF report and the portal read them here).
  bands: {
    cvai1: "Nivel 1 (dentro de los límites normales)",
    cvai2: "Nivel 2 (leve)",
    cvai3: "Nivel 3 (moderado)",
    cvai4: "Nivel 4 (grave)",
    cvai5: "Nivel 5 (muy grave)",
    ciLongHead: "Cabeza alargada (tendencia a dolicocefalia)",
    ciTypical: "Típico",
    ciMild: "Braquicefalia leve",
    ciModerate: "Braquicefalia moderada",
    ciSevere: "Braquicefalia grave",
  },
} as const satisfies Pick<Catalogue, "reasons" | "quizTexts" | "bands">;
