import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractFrames, FfmpegMissing, parsePpmStream, VideoUnreadable } from "./frames.ts";

const dir = mkdtempSync(join(tmpdir(), "crown-frames-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("parsePpmStream", () => {
  it("splits concatenated PPM frames, comments included", () => {
    const a = Buffer.concat([Buffer.from("P6\n2 1\n255\n"), Buffer.from([1, 2, 3, 4, 5, 6])]);
    const b = Buffer.concat([Buffer.from("P6 # from ffmpeg\n1 2 255\n"), Buffer.from([7, 8, 9, 10, 11, 12])]);
    const frames = parsePpmStream(Buffer.concat([a, b]));
    expect(frames.map((f) => [f.width, f.height])).toEqual([[2, 1], [1, 2]]);
    expect([...frames[1]!.data]).toEqual([7, 8, 9, 10, 11, 12]);
  });

  it("refuses a cut-off frame", () => {
    expect(() => parsePpmStream(Buffer.from("P6\n4 4\n255\n\x01\x02"))).toThrow(VideoUnreadable);
  });
});

describe("extractFrames (ffmpeg)", () => {
  const video = join(dir, "portrait.mp4");
  beforeAll(() => {
    // 2 s of a 720 × 1280 portrait test pattern at 30 fps.
    execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=720x1280:rate=30:duration=2", "-pix_fmt", "yuv420p", video]);
  });

  it("samples 5 frames a second, shrunk to fit 960 px, aspect kept", async () => {
    const frames = await extractFrames(video);
    expect(frames).toHaveLength(10);
    for (const f of frames) {
      expect([f.width, f.height]).toEqual([540, 960]);
      expect(f.data.length).toBe(540 * 960 * 3);
    }
  });

  it("does not enlarge small videos and honours fps and maxFrames", async () => {
    const frames = await extractFrames(video, { fps: 2, maxSide: 2000, maxFrames: 3 });
    expect(frames.map((f) => [f.width, f.height])).toEqual([[720, 1280], [720, 1280], [720, 1280]]);
  });

  it("says clearly when ffmpeg is missing", async () => {
    await expect(extractFrames(video, { ffmpeg: "/nonexistent/ffmpeg" })).rejects.toBeInstanceOf(FfmpegMissing);
    await expect(extractFrames(video, { ffmpeg: "/nonexistent/ffmpeg" })).rejects.toThrow(/ffmpeg is needed/);
  });

  it("says when the video cannot be read", async () => {
    await expect(extractFrames(join(dir, "none.mp4"))).rejects.toBeInstanceOf(VideoUnreadable);
  });
});
