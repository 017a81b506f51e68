// `crown analyze` end to end, in-process, on the committed model and its sample photos and clip.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import type { PhotoAnalysis } from "../../core/src/measurement/index.ts";
import { analyzeCommand, summarizeVideo } from "../../apps/server/src/commands/analyze.ts";
import { modelAvailable, samplePhotos, sampleVideo } from "../../adapters/inference/src/testing.ts";

const dir = mkdtempSync(join(tmpdir(), "crown-analyze-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Run the command, capturing what it prints. */
const run = async (args: string[]) => {
  let stdout = "";
  let stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    const code = await analyzeCommand(args);
    return { code, stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
};
afterEach(() => vi.restoreAllMocks());

describe.skipIf(!modelAvailable() || samplePhotos().length === 0)("crown analyze", () => {
  const photo = samplePhotos()[0]!;

  it("prints one JSON array with exactly the documented fields", async () => {
    const { code, stdout } = await run([photo, "--json"]);
    expect(code).toBe(0);
    const lines = JSON.parse(stdout) as Record<string, unknown>[];
    expect(lines).toHaveLength(1);
    expect(Object.keys(lines[0]!).sort()).toEqual(["accepted", "ci", "cva_mm", "cvai", "file", "reasons", "verdict"]);
    expect(lines[0]!.file).toBe(photo);
    expect(typeof lines[0]!.accepted).toBe("boolean");
    expect(["accept", "retake", "refer"]).toContain(lines[0]!.verdict);
    expect(lines[0]!.accepted).toBe(lines[0]!.verdict === "accept");
  });

  it("names each unreadable file, still reports the others, and exits 1", async () => {
    const text = join(dir, "notes.jpg");
    writeFileSync(text, "not really a photo");
    const { code, stdout, stderr } = await run([photo, text, join(dir, "missing.png"), "--json"]);
    expect(code).toBe(1);
    const lines = JSON.parse(stdout) as { file: string; error?: string }[];
    expect(lines.map((l) => l.file)).toEqual([photo, text, join(dir, "missing.png")]);
    expect(lines[0]!.error).toBeUndefined();
    expect(stderr).toContain(`${text}: not a photo or a video Crown can read`);
    expect(stderr).toContain("missing.png: no such file");
  });

  it("prints a readable table", async () => {
    const { code, stdout } = await run([photo]);
    expect(code).toBe(0);
    const [header, rule, row] = stdout.trimEnd().split("\n");
    expect(header).toMatch(/^File\s+Accepted\s+CI\s+CVAI\s+CVA mm\s+Notes$/);
    expect(rule).toMatch(/^-+\s+-+/);
    expect(row).toContain(photo);
  });

  it.skipIf(sampleVideo() === null)("measures a video by its best frames", async () => {
    const { code, stdout } = await run([sampleVideo()!, "--json"]);
    expect(code).toBe(0);
    const [line] = JSON.parse(stdout) as { accepted: boolean; ci: number | null; reasons: string[] }[];
    expect(line!.accepted ? line!.ci !== null : line!.reasons.length > 0).toBe(true);
  });

  it("says where the model should be when it is missing", async () => {
    const { code, stderr } = await run([photo, "--model", join(dir, "none.onnx")]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/not at .*none\.onnx/);
  });
});

describe("summarizeVideo", () => {
  const frame = (accepted: boolean, ci: number, margin: number, reasons: PhotoAnalysis["reasons"] = [], verdict?: PhotoAnalysis["verdict"]): PhotoAnalysis =>
    ({ accepted, verdict: verdict ?? (accepted ? "accept" : "retake"), reasons, ci, cvai: ci / 20, cva_mm: null, qualityMargin: margin }) as PhotoAnalysis;

  it("takes the median of the ten best accepted frames, with the spread", () => {
    const frames = [
      ...Array.from({ length: 12 }, (_, i) => frame(true, 80 + i, i / 20)), // the two worst: ci 90 and 91
      frame(false, 200, 0, ["Image is blurry"]),
    ];
    const result = summarizeVideo("clip.mp4", frames);
    expect(result.accepted).toBe(true);
    expect(result.video).toMatchObject({ frames: 13, accepted: 12, used: 10 });
    expect(result.ci).toBe(84.5);
    expect(result.video!.ci).toEqual({ median: 84.5, min: 80, max: 89, count: 10 });
    expect(result.cva_mm).toBeNull();
  });

  it("without an accepted frame, gives the reasons that rejected most frames", () => {
    const frames = [
      frame(false, 80, 2, ["Image is blurry"]),
      frame(false, 80, 2, ["Image is blurry", "Hair artifact present"]),
      frame(false, 80, 2, ["Image is blurry"]),
      frame(false, 80, 2, ["No nose visible"]),
    ];
    const result = summarizeVideo("clip.mp4", frames);
    expect(result).toMatchObject({ accepted: false, verdict: "retake", ci: null, cvai: null, cva_mm: null, reasons: ["Image is blurry"] });
  });

  it("refers a clip to the reviewer when no frame was accepted and some were unsure", () => {
    const frames = [frame(false, 80, 2, ["Image is blurry"]), frame(false, 80, 1, ["Hair artifact present"], "refer")];
    expect(summarizeVideo("clip.mp4", frames)).toMatchObject({ accepted: false, verdict: "refer" });
    expect(summarizeVideo("clip.mp4", [...frames, frame(true, 82, 0.5)])).toMatchObject({ accepted: true, verdict: "accept" });
  });
});
