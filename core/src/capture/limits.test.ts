import { describe, expect, test } from "vitest";
import { checkSelection, isVideoName, UPLOAD_LIMITS, UPLOAD_RULE_MESSAGES, uploadableVideo } from "./limits.ts";

describe("upload limits", () => {
  const file = (name: string, size = 1000) => ({ name, size });
  test("the spec's three messages, before anything is sent", () => {
    expect(checkSelection(Array.from({ length: 21 }, (_, i) => file(`${i}.jpg`)))).toBe(UPLOAD_RULE_MESSAGES.tooMany);
    expect(checkSelection([file("a.gif")])).toBe(UPLOAD_RULE_MESSAGES.format);
    expect(checkSelection([file("a.mp4", 100 * 1024 * 1024 + 1)])).toBe(UPLOAD_RULE_MESSAGES.tooLarge);
    expect(checkSelection([file("a.JPG"), file("b.jpeg"), file("c.png"), file("d.MOV"), file("e.mp4")])).toBeNull();
  });

  test("a capture's video goes with the shots only in an accepted format and size", () => {
    expect(isVideoName("clip.MOV")).toBe(true);
    expect(uploadableVideo(file("clip.mp4", UPLOAD_LIMITS.maxBytes))).toBe(true);
    expect(uploadableVideo(file("clip.mp4", UPLOAD_LIMITS.maxBytes + 1))).toBe(false);
    expect(uploadableVideo(file("clip.webm"))).toBe(false);
  });
});
