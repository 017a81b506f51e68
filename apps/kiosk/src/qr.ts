import jsQR from "jsqr";

/** An RGBA frame in ImageData's shape, so the decoder runs (and is tested) without a browser. */
export interface RgbaFrame {
  readonly data: Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
}

/**
 * The text of the QR code in the frame, or null. The portal always draws dark on light, so inverted
 * codes are not tried: that halves the work per frame on the tablet's main thread.
 */
export const decodeQrFrame = (frame: RgbaFrame): string | null =>
  jsQR(frame.data, frame.width, frame.height, { inversionAttempts: "dontInvert" })?.data || null;

interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats?: () => Promise<string[]>;
}

/** Reads the QR code in the video's current frame, if any. */
export type QrReader = (video: HTMLVideoElement) => Promise<string | null>;

/** Frames are scaled down to this many pixels on the long side before jsQR reads them (speed, not accuracy, limits it). */
const SCAN_MAX_SIDE = 640;

/**
 * BarcodeDetector where the browser has one that reads QR codes (Android, ChromeOS, macOS), else jsQR
 * on a scaled-down copy of the frame (Linux and Windows Chromium, Firefox).
 */
export const createQrReader = async (): Promise<{ readonly read: QrReader; readonly native: boolean }> => {
  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Detector) {
    const formats = Detector.getSupportedFormats ? await Detector.getSupportedFormats().catch((): string[] => []) : ["qr_code"];
    if (formats.includes("qr_code")) {
      const detector = new Detector({ formats: ["qr_code"] });
      return { native: true, read: async (video) => (await detector.detect(video).catch(() => []))[0]?.rawValue || null };
    }
  }
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  return {
    native: false,
    read: async (video) => {
      if (!context || video.readyState < 2 || !video.videoWidth) return null;
      const k = Math.min(1, SCAN_MAX_SIDE / Math.max(video.videoWidth, video.videoHeight));
      const width = Math.max(1, Math.round(video.videoWidth * k));
      const height = Math.max(1, Math.round(video.videoHeight * k));
      if (canvas.width !== width || canvas.height !== height) {
        canvas.width = width;
        canvas.height = height;
      }
      context.drawImage(video, 0, 0, width, height);
      return decodeQrFrame(context.getImageData(0, 0, width, height));
    },
  };
};
