import { Effect, Option } from "effect";
import type { ContentSnifferPort } from "../shared/ports.ts";

/** Content sniffing and sample bytes for tests: the magic numbers the real sniffer also knows. */

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>, at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

export const MAGIC = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
  ftyp: ascii("ftyp"),
} as const;

/** A PNG's size from its IHDR chunk; the sample images without one are taken as 640 × 480. */
const testPixelSize = (head: Uint8Array) => {
  if (startsWith(head, MAGIC.png) && startsWith(head, ascii("IHDR"), 12) && head.length >= 24) {
    const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  return { width: 640, height: 480 };
};

/** Recognises PNG, JPEG, MP4 and QuickTime by their magic bytes, and an image's size (what the real sniffer answers for them). */
export const makeTestContentSniffer = (): ContentSnifferPort => ({
  sniff: (head) =>
    Effect.sync(() => {
      if (startsWith(head, MAGIC.png)) return Option.some({ mime: "image/png", ext: "png", ...testPixelSize(head) });
      if (startsWith(head, MAGIC.jpeg)) return Option.some({ mime: "image/jpeg", ext: "jpg", ...testPixelSize(head) });
      if (startsWith(head, MAGIC.ftyp, 4)) {
        const brand = String.fromCharCode(...head.subarray(8, 12));
        return brand === "qt  " ? Option.some({ mime: "video/quicktime", ext: "mov" }) : Option.some({ mime: "video/mp4", ext: "mp4" });
      }
      return Option.none();
    }),
});

/** Minimal byte strings that the sniffer (and real sniffers) recognise, padded to `size`. */
export const sampleBytes = {
  png: (size = 64) => pad(MAGIC.png, size),
  jpeg: (size = 64) => pad([...MAGIC.jpeg, 0xe0], size),
  mp4: (size = 64) => pad([0, 0, 0, 0x18, ...MAGIC.ftyp, ...ascii("isom")], size),
  mov: (size = 64) => pad([0, 0, 0, 0x14, ...MAGIC.ftyp, ...ascii("qt  ")], size),
  gif: (size = 64) => pad(ascii("GIF89a"), size),
  text: (size = 64) => pad(ascii("hello, world"), size),
};
const pad = (prefix: ReadonlyArray<number>, size: number) => {
  const bytes = new Uint8Array(Math.max(size, prefix.length));
  bytes.set(prefix);
  return bytes;
};

export const readAll = async (stream: ReadableStream<Uint8Array>): Promise<Uint8Array> => {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
};
