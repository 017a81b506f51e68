import { Either, Schema } from "effect";
import { describe, expect, it } from "vitest";
import { ProfileUpdateRequest, SignUpForm, SignInRequest } from "../accounts/schemas.ts";
import { CreateDeviceRequest, StaffSignInRequest } from "../kiosk/requests.ts";
import { AddStaffRequest, BabyRequest } from "../onboarding/schemas.ts";
import { NotFound } from "../shared/errors.ts";
import { check } from "../shared/validation.ts";
import { CATALOGUES, EN, ES, localizeMessage, resolveMessage } from "./index.ts";
import { MAILS } from "./mails/index.ts";
import { QUALITY_REASONS } from "../measurement/verdict.ts";
import { ANALYSIS_PROBLEMS, notAllowedWhile } from "../report/requests.ts";
import { analysisNoteIn, ANALYSIS_NOTES_EN, ANALYSIS_NOTES_ES, NOTICES_EN, NOTICES_ES, noticeText, QUALITY_REASONS_ES, REMINDERS_EN, REMINDERS_ES } from "./mails/notices.ts";

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const keysOf = (catalogue: object) =>
  Object.entries(catalogue).flatMap(([group, messages]) => Object.keys(messages as object).map((key) => `${group}.${key}`)).sort();

describe("core's message catalogues", () => {
  it("have the same keys in every language (a key in one and not the other fails)", () => {
    const english = keysOf(EN);
    for (const [language, catalogue] of Object.entries(CATALOGUES)) expect(keysOf(catalogue), language).toEqual(english);
  });

  it("name the same placeholders as the English message, and no message is empty", () => {
    for (const [group, messages] of Object.entries(EN)) {
      for (const [key, text] of Object.entries(messages as Record<string, string>)) {
        const spanish = (ES as unknown as Record<string, Record<string, string>>)[group]![key]!;
        expect(spanish.trim().length, `${group}.${key}`).toBeGreaterThan(0);
        expect(placeholders(spanish), `${group}.${key}`).toEqual(placeholders(text));
      }
    }
  });

  it("find the key of every English message, templates included", () => {
    expect(resolveMessage(EN.accounts.badCredentials)).toEqual({ key: "accounts.badCredentials", params: {} });
    expect(resolveMessage("First name is required")).toEqual({ key: "fields.required", params: { label: "First name" } });
    expect(resolveMessage(NotFound.of("Report").message)).toEqual({ key: "errors.notFound", params: { what: "Report" } });
    expect(resolveMessage("Not a message of Crown's")).toBeNull();
  });

  it("answer every field error of the forms in Spanish, labels and value lists included", () => {
    const lookup = (key: string, params: Readonly<Record<string, string>>) => {
      const [group, name] = key.split(".") as [string, string];
      const text = (ES as unknown as Record<string, Record<string, string>>)[group]![name]!;
      return text.replace(/\{(\w+)\}/g, (_, p: string) => params[p] ?? `{${p}}`);
    };
    const cases: Array<[Schema.Schema<unknown, never, never>, unknown]> = [
      [SignUpForm as never, {}],
      [SignUpForm as never, { email: "x", password: "short", phone: "12", type: "alien", confirm_password: "other", terms: false }],
      [SignInRequest as never, {}],
      [ProfileUpdateRequest as never, { fax_number: "??" }],
      [BabyRequest({ year: 2026, month: 11, day: 24 }) as never, { date_of_birth: "2031-01-01", relation: "x", nicu_time: 40, gender: "x" }],
      [BabyRequest({ year: 2026, month: 11, day: 24 }) as never, {}],
      [CreateDeviceRequest as never, {}],
      [StaffSignInRequest as never, {}],
      [AddStaffRequest as never, { type: "boss" }],
    ];
    for (const [schema, input] of cases) {
      const result = check(schema, input);
      expect(Either.isLeft(result)).toBe(true);
      if (Either.isRight(result)) continue;
      for (const message of Object.values(result.left.errors).flat()) {
        expect(resolveMessage(message), message).not.toBeNull();
        const spanish = localizeMessage(message, "es", lookup);
        expect(spanish, message).not.toBe(message);
        expect(spanish).not.toMatch(/\{\w+\}| is required| must be one of/);
      }
    }
    expect(localizeMessage("Type must be one of parent, physician or nurse", "es", lookup)).toBe(
      "El campo Tipo debe ser uno de estos valores: parent, physician o nurse",
    );
    expect(localizeMessage(EN.accounts.badCredentials, "en", lookup)).toBe(EN.accounts.badCredentials);
    // A report's lifecycle refusal (409): the status word translated too; the English as it always read.
    expect(notAllowedWhile("recapture_requested")).toBe("This report cannot do that while it is recapture requested.");
    expect(localizeMessage(notAllowedWhile("in_review"), "es", lookup)).toBe("Este informe no permite esa acción en su estado actual (en revisión).");
  });

  it("have every e-mail's copy in every language, with the same placeholders", () => {
    for (const [language, copy] of Object.entries(MAILS)) {
      expect(keysOf(copy), language).toEqual(keysOf(MAILS.en));
      for (const [group, texts] of Object.entries(MAILS.en)) {
        for (const [key, text] of Object.entries(texts as Record<string, string>)) {
          const other = (copy as unknown as Record<string, Record<string, string>>)[group]![key]!;
          expect(placeholders(other), `${language} ${group}.${key}`).toEqual(placeholders(text));
        }
      }
    }
  });

  it("have every notification, reminder and analysis note in Spanish, with the same placeholders", () => {
    for (const [english, spanish] of [
      [NOTICES_EN, NOTICES_ES],
      [REMINDERS_EN, REMINDERS_ES],
      [ANALYSIS_NOTES_EN, ANALYSIS_NOTES_ES],
    ] as const) {
      expect(Object.keys(spanish).sort()).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(english)) {
        const other = (spanish as Record<string, string>)[key]!;
        expect(other.trim().length, key).toBeGreaterThan(0);
        expect(placeholders(other), key).toEqual(placeholders(text));
      }
    }
    expect(Object.keys(QUALITY_REASONS_ES).sort()).toEqual([...QUALITY_REASONS].sort());
  });

  it("render a notification in English as it was always written, and in Spanish with the reasons translated", () => {
    expect(noticeText("en", "recaptureRequested", { baby: "Bo Li", reasons: ["Image is blurry", "No nose visible"] })).toBe(
      "A new capture of Bo Li is needed: Image is blurry; No nose visible.",
    );
    expect(noticeText("es", "recaptureRequested", { baby: "Bo Li", reasons: ["Image is blurry", "No nose visible"] })).toBe(
      "Se necesita una captura nueva de Bo Li: La imagen está borrosa; No se ve la nariz.",
    );
    // A value is never read as a placeholder.
    expect(noticeText("es", "reportPublished", { baby: "{baby}" })).toBe("El informe de la forma de la cabeza de {baby} está listo.");
  });

  it("find every note the analysis writes, and leave English and unknown notes as written", () => {
    const notes = [
      ANALYSIS_PROBLEMS.noModel,
      ANALYSIS_PROBLEMS.unreadable("a.jpg"),
      ANALYSIS_PROBLEMS.noAccepted,
      ANALYSIS_PROBLEMS.noFrames("v.mp4", "the file is missing"),
      ANALYSIS_PROBLEMS.noFfmpeg("ffmpeg is not installed"),
      `${ANALYSIS_PROBLEMS.failed}: timeout`,
    ];
    const spanish = notes.map((n) => analysisNoteIn("es", n));
    expect(spanish).toEqual([
      ANALYSIS_NOTES_ES.noModel,
      "a.jpg: no se pudo leer el archivo como imagen.",
      ANALYSIS_NOTES_ES.noAccepted,
      "v.mp4: no se pudieron tomar imágenes del video (falta el archivo). El video se conserva para la revisión.",
      "No se analizaron los videos: ffmpeg is not installed. Los videos se conservan para la revisión.",
      "El análisis automático falló después de varios intentos; revise las fotos a mano: timeout",
    ]);
    for (const n of notes) expect(analysisNoteIn("en", n)).toBe(n);
    expect(analysisNoteIn("es", "Something else")).toBe("Something else");
  });
});
