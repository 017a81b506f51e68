import { readFileSync } from "node:fs";
import { ES } from "@crown/core/i18n/es/index";
import { localizeMessage, resolveMessage } from "@crown/core/i18n/localize";
import { QUIZ_FEEDBACK_TEXT, type QuizManifest } from "@crown/core/onboarding/quiz-machine";
import { describe, expect, it } from "vitest";

// The quiz shows each photo's reason and the verdict through core's catalogue (uiMessage): every text must be a key there.
const manifest = JSON.parse(readFileSync(new URL("../../public/quiz/manifest.json", import.meta.url), "utf8")) as QuizManifest;
const spanish = (text: string) =>
  localizeMessage(text, "es", (key) => {
    const [group, name] = key.split(".") as [string, string];
    return (ES as unknown as Record<string, Record<string, string>>)[group]![name]!;
  });

describe("the quiz's words", () => {
  it("are every one in core's catalogue, with Spanish", () => {
    const texts = new Set([...manifest.cap, ...manifest.nocap].map((q) => q.reason));
    expect(texts.size).toBeGreaterThan(2);
    for (const text of [...texts, ...Object.values(QUIZ_FEEDBACK_TEXT)]) {
      expect(resolveMessage(text), text).not.toBeNull();
      expect(spanish(text), text).not.toBe(text);
    }
    expect(spanish("Correct!")).toBe("¡Correcto!");
  });
});
