import { CATALOGUES } from "@crown/core/i18n/index";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { translate } from "./i18n.ts";
import { HTTP_EN, HTTP_ES } from "./messages.ts";

describe("the API's catalogues", () => {
  it("hold only valid ICU messages, in every language", () => {
    for (const [language, catalogue] of Object.entries(CATALOGUES)) {
      for (const [group, messages] of Object.entries(catalogue)) {
        for (const [key, text] of Object.entries(messages as Record<string, string>)) {
          expect(() => new IntlMessageFormat(text, language), `${language} ${group}.${key}`).not.toThrow();
        }
      }
    }
  });

  it("have the HTTP adapter's answers in both languages", () => {
    expect(Object.keys(HTTP_ES).sort()).toEqual(Object.keys(HTTP_EN).sort());
  });

  it("leave English and unknown text as given", () => {
    expect(translate("Email is invalid", "en")).toBe("Email is invalid");
    expect(translate("Something nobody catalogued", "es")).toBe("Something nobody catalogued");
    expect(translate("Email is invalid", "es")).toBe("El correo electrónico no es válido");
    expect(translate("Must be at most 255 characters", "es")).toBe("Debe tener como máximo 255 caracteres");
  });
});
