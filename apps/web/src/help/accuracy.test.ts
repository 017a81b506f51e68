import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import en from "../i18n/locales/en/help.json";
import es from "../i18n/locales/es/help.json";

/*
 * The help center's accuracy sentence leaves out what the model card does not give (an ICU select on
 * "none"): English word for word as the screen wrote it before the catalogues, Spanish the same shape.
 */

const all = { images: "120", ci: "1.23", cvai: "0.50", accepted: "95.5%", rejected: "90%" };
const bare = { images: "none", ci: "1.23", cvai: "0.50", accepted: "none", rejected: "none" };
const say = (message: string, language: string, values: Record<string, string>) => new IntlMessageFormat(message, language).format(values);

describe("the accuracy sentence", () => {
  it("in English, every figure or only the two averages", () => {
    expect(say(en.accuracy.measured, "en", all)).toBe(
      "On 120 held-out test photos, Crown's automatic measurement differed from the true value by 1.23 points of cranial index and 0.50 points of CVAI on average, and accepted 95.5% of the good photos while rejecting 90% of the bad ones.",
    );
    expect(say(en.accuracy.measured, "en", bare)).toBe(
      "On held-out test photos, Crown's automatic measurement differed from the true value by 1.23 points of cranial index and 0.50 points of CVAI on average.",
    );
  });

  it("in Spanish, the same parts kept and left out", () => {
    expect(say(es.accuracy.measured, "es", all)).toBe(
      "En 120 fotos de prueba apartadas del entrenamiento, la medición automática de Crown se diferenció del valor real, en promedio, en 1.23 puntos de índice cefálico y 0.50 puntos de CVAI, y aceptó el 95.5% de las fotos buenas mientras rechazaba el 90% de las fotos malas.",
    );
    expect(say(es.accuracy.measured, "es", { ...bare, rejected: "90%" })).toBe(
      "En fotos de prueba apartadas del entrenamiento, la medición automática de Crown se diferenció del valor real, en promedio, en 1.23 puntos de índice cefálico y 0.50 puntos de CVAI mientras rechazaba el 90% de las fotos malas.",
    );
  });
});
