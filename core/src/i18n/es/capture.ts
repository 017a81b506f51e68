import type { Catalogue } from "../en.ts";

/** Spanish: the quiz's words and the severity bands (ICU syntax). */
export const ES_CAPTURE = {
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
} as const satisfies Pick<Catalogue, "quizTexts" | "bands">;
