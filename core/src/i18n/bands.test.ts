import { describe, expect, it } from "vitest";
import { CI_BANDS, CVAI_BANDS } from "../measurement/bands.ts";
import { frameMessages, QUALITY_REASONS } from "../measurement/verdict.ts";
import { bandLabel } from "./bands.ts";
import { ES } from "./es/index.ts";
import { localizeMessage } from "./localize.ts";

const lookup = (key: string) => {
  const [group, name] = key.split(".") as [string, string];
  return (ES as unknown as Record<string, Record<string, string>>)[group]![name]!;
};

describe("the severity bands, the quality reasons and the quiz in core's catalogues", () => {
  it("give each band its own label in English and its catalogue label in Spanish", () => {
    for (const band of [...CI_BANDS, ...CVAI_BANDS]) {
      expect(bandLabel(band, "en")).toBe(band.label);
      expect(bandLabel(band, "es")).toBe(ES.bands[band.key]);
    }
    expect(bandLabel(CVAI_BANDS[1]!, "es")).toBe("Nivel 2 (leve)");
    expect(bandLabel(CI_BANDS.find((b) => b.name === "severe brachycephaly")!, "es")).toBe("Braquicefalia grave");
    // Distinct words for distinct bands.
    expect(new Set([...CI_BANDS, ...CVAI_BANDS].map((b) => bandLabel(b, "es"))).size).toBe(CI_BANDS.length + CVAI_BANDS.length);
  });

  it("find every band label and quality reason from its English words (the portal's path to them)", () => {
    for (const english of [...CI_BANDS.map((b) => b.label), ...CVAI_BANDS.map((b) => b.label), ...QUALITY_REASONS]) {
      const spanish = localizeMessage(english, "es", lookup);
      expect(spanish, english).not.toBe(english);
    }
    expect(localizeMessage("Image is blurry", "es", lookup)).toBe("La imagen está borrosa");
  });

  it("say a live frame's verdict in the language asked for, English unchanged", () => {
    const blurred = { accepted: false, verdict: "retake" as const, reasons: ["Image is blurry", "No nose visible"] as const };
    const spanish = (t: string) => localizeMessage(t, "es", lookup);
    expect(frameMessages({ ...blurred, reasons: [...blurred.reasons] }).join("; ")).toBe("Image is blurry; No nose visible");
    expect(frameMessages({ ...blurred, reasons: [...blurred.reasons] }).map(spanish).join("; ")).toBe("La imagen está borrosa; No se ve la nariz");
    expect(frameMessages({ accepted: true, verdict: "accept", reasons: [] }).map(spanish)).toEqual(["Buena imagen: no se mueva"]);
  });
});
