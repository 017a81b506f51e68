import { EN } from "@crown/core/i18n/en";
import { REVOCATION_REASONS_SHOWN } from "@crown/core/kiosk/revocation";
import { FRAME_MESSAGES, frameMessages, QUALITY_REASONS } from "@crown/core/measurement/verdict";
import i18next from "i18next";
import { afterEach, describe, expect, it } from "vitest";
import { coreText } from "./i18n.ts";
import { setShownLanguage } from "./language.ts";
import enCommon from "./locales/en/common.json";
import esCommon from "./locales/es/common.json";

/** What the kiosk shows of core's English (its checks, the capture's frame hints) in the session's language. */
describe("the kiosk's core messages", () => {
  afterEach(() => {
    setShownLanguage("en");
    void i18next.changeLanguage("en");
  });

  it("leaves English as core wrote it", () => {
    for (const reason of QUALITY_REASONS) expect(coreText(reason)).toBe(reason);
    expect(coreText("First name is required")).toBe("First name is required");
  });

  it("shows every frame hint and quality reason, and a field's check, in Spanish", () => {
    setShownLanguage("es");
    for (const text of [...Object.values(FRAME_MESSAGES), ...QUALITY_REASONS]) {
      const spanish = coreText(text);
      expect(spanish, text).not.toBe(text);
      expect(spanish.trim().length, text).toBeGreaterThan(0);
    }
    expect(coreText(EN.frames.good)).toBe("Buena imagen: no se mueva");
    expect(frameMessages({ accepted: false, verdict: "retake", reasons: ["Image is blurry", "No nose visible"] }).map(coreText).join("; ")).toBe(
      "La imagen está borrosa; No se ve la nariz",
    );
    expect(coreText("First name is required")).toBe("El campo Nombre es obligatorio");
  });

  it("counts in Spanish with ICU plurals, the English unchanged", () => {
    const english = i18next.getResourceBundle("en", "capture") as Record<string, Record<string, string>>;
    const spanish = i18next.getResourceBundle("es", "capture") as Record<string, Record<string, string>>;
    expect(Object.keys(spanish.review ?? {})).toEqual(Object.keys(english.review ?? {}));
    expect(i18next.t("review.upload", { ns: "capture", lng: "es", count: 9 })).toBe("Subir 9 fotos");
    expect(i18next.t("review.upload", { ns: "capture", lng: "es", count: 1 })).toBe("Subir 1 foto");
    expect(i18next.t("review.upload", { ns: "capture", lng: "en", count: 9 })).toBe("Upload 9 shots");
  });
});

/** The revoked screen names the reason by a key built from its code, which the extraction check cannot follow. */
describe("the revoked screen's words", () => {
  it("names every revocation reason, and what to do next for it, in English and Spanish", () => {
    for (const words of [enCommon.revoked, esCommon.revoked]) {
      expect(Object.keys(words.reason).sort()).toEqual([...REVOCATION_REASONS_SHOWN].sort());
      expect(Object.keys(words.next).sort()).toEqual([...REVOCATION_REASONS_SHOWN].sort());
    }
    for (const reason of REVOCATION_REASONS_SHOWN) expect(esCommon.revoked.next[reason]).not.toBe(enCommon.revoked.next[reason]);
  });
});
