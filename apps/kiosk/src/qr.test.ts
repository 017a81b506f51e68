import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { decodeQrFrame, type RgbaFrame } from "./qr.ts";

/** A long code (the old signed baby-code format), which makes a dense QR for the decoder; GET /user/baby-qr now answers 8 characters. */
const BABY_CODE = "01JDX8Q2M3N4P5R6S7T8V9W0XY.1795000000.q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c";

/**
 * Draws `text` as the portal does (level M, 4-module quiet zone, dark on white) into a camera-sized
 * grey frame at (`left`, `top`), `scale` pixels per module, with a brightness slope and noise like a photo.
 */
const cameraFrame = (text: string, { width = 640, height = 480, scale = 4, left = 100, top = 60, noise = 0 } = {}): RgbaFrame => {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const quiet = 4;
  const data = new Uint8ClampedArray(width * height * 4);
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const mx = Math.floor((x - left) / scale) - quiet;
      const my = Math.floor((y - top) / scale) - quiet;
      const inCode = x >= left && y >= top && mx < modules.size + quiet && my < modules.size + quiet;
      const dark = inCode && mx >= 0 && my >= 0 && mx < modules.size && my < modules.size && modules.get(mx, my);
      const base = !inCode ? 120 : dark ? 30 : 225;
      const value = base + (x / width) * 25 + random() * noise;
      data.set([value, value, value, 255], (y * width + x) * 4);
    }
  }
  return { data, width, height };
};

describe("decodeQrFrame", () => {
  it("reads a baby code drawn as the portal draws it", () => {
    expect(decodeQrFrame(cameraFrame(BABY_CODE))).toBe(BABY_CODE);
  });

  it("reads it off-centre in a noisy, unevenly lit camera frame", () => {
    expect(decodeQrFrame(cameraFrame(BABY_CODE, { width: 800, height: 600, scale: 3, left: 380, top: 250, noise: 30 }))).toBe(BABY_CODE);
  });

  it("reads other codes exactly (no caching or truncation)", () => {
    const other = BABY_CODE.replace("q1w2", "zzzz");
    expect(decodeQrFrame(cameraFrame(other))).toBe(other);
  });

  it("answers null for a frame without a QR code", () => {
    const data = new Uint8ClampedArray(320 * 240 * 4).fill(128);
    expect(decodeQrFrame({ data, width: 320, height: 240 })).toBeNull();
  });

  it("answers null when the code is cut off by the frame's edge", () => {
    expect(decodeQrFrame(cameraFrame(BABY_CODE, { width: 300, height: 300, left: 150, top: 150 }))).toBeNull();
  });
});
