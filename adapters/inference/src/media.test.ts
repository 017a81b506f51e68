import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { decodeImage } from "./node.ts";
import { sniffMedia } from "./media.ts";

const dir = mkdtempSync(join(tmpdir(), "crown-media-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("sniffMedia", () => {
  it("tells photos from videos by their bytes", async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#ccc" } }).jpeg().toBuffer();
    const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: "#ccc" } }).png().toBuffer();
    const mov = join(dir, "clip.mov");
    execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=64x64:rate=5:duration=1", mov]);
    expect(await sniffMedia(jpeg)).toEqual({ kind: "image", mime: "image/jpeg" });
    expect((await sniffMedia(png)).kind).toBe("image");
    expect(await sniffMedia(readFileSync(mov))).toEqual({ kind: "video", mime: "video/quicktime" });
    expect(await sniffMedia(new TextEncoder().encode("just text, named photo.jpg"))).toEqual({ kind: "unknown", mime: null });
  });
});

describe("decodeImage", () => {
  it("turns a photo upright by its EXIF orientation", async () => {
    // Stored 40 × 20 with orientation 6 (rotate 90° clockwise to view): upright it is 20 × 40.
    const stored = Buffer.alloc(40 * 20 * 3);
    for (let x = 0; x < 10; x++) for (let y = 0; y < 20; y++) stored.fill(255, (y * 40 + x) * 3, (y * 40 + x) * 3 + 3);
    const jpeg = await sharp(stored, { raw: { width: 40, height: 20, channels: 3 } }).withMetadata({ orientation: 6 }).jpeg({ quality: 100 }).toBuffer();
    const image = await decodeImage(jpeg);
    expect([image.width, image.height, image.channels]).toEqual([20, 40, 3]);
    // The stored left edge (white) becomes the top.
    expect(image.data[(2 * 20 + 10) * 3]!).toBeGreaterThan(200);
    expect(image.data[(37 * 20 + 10) * 3]!).toBeLessThan(50);
  });

  it("drops alpha and can shrink large photos", async () => {
    const png = await sharp({ create: { width: 300, height: 100, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 1 } } }).png().toBuffer();
    const image = await decodeImage(png, { maxSide: 150 });
    expect([image.width, image.height, image.channels]).toEqual([150, 50, 3]);
    expect([...image.data.subarray(0, 3)]).toEqual([10, 20, 30]);
  });

  it("gives 8-bit RGB for 16-bit and greyscale photos", async () => {
    const png16 = await sharp({ create: { width: 4, height: 2, channels: 3, background: { r: 200, g: 100, b: 50 } } }).toColourspace("rgb16").png().toBuffer();
    expect([...(await decodeImage(png16)).data.subarray(0, 3)]).toEqual([200, 100, 50]);
    const grey = await sharp({ create: { width: 4, height: 2, channels: 3, background: { r: 90, g: 90, b: 90 } } }).greyscale().png().toBuffer();
    const image = await decodeImage(grey);
    expect([image.channels, image.data.length]).toEqual([3, 24]);
  });

  it("refuses bytes that are not an image", async () => {
    await expect(decodeImage(new TextEncoder().encode("not an image"))).rejects.toThrow();
  });
});
