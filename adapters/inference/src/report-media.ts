// The report pipeline's media ports: photos decoded and served with sharp, video frames with ffmpeg.
import { spawnSync } from "node:child_process";
import { createWriteStream, promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { FrameExtractor, type FrameExtractorPort, Images, type ImagesPort, MAX_IMAGE_PIXELS } from "@crown/core/report/index";
import { Effect, Layer, Option } from "effect";
import sharp from "sharp";
import { decodeImage } from "./node.ts";
import { extractFrames, FfmpegMissing } from "./frames.ts";

/** Photos decoded at once per process (each a full-size bitmap in memory). */
export const DECODE_SLOTS = 2;

const attempt = <A>(f: () => Promise<A>) => Effect.promise(() => f().then(Option.some, () => Option.none<A>()));
const bytesOf = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/**
 * `clean`: the EXIF orientation applied and every metadata block left out (sharp keeps none unless
 * asked), so no location ever leaves the server. Both scale like `decode`, so an overlay measured
 * on the decoded pixels lines up with the served image of the same `maxSide`.
 */
export const makeImages = (slots = DECODE_SLOTS): ImagesPort => {
  // At most `slots` photos decoded at once in this process (ADR 0031): each may hold a full-size bitmap.
  const gate = Effect.unsafeMakeSemaphore(Math.max(1, slots));
  const bounded = <A>(f: () => Promise<A>) => gate.withPermits(1)(attempt(f));
  // Nothing over the upload's pixel limit is ever decoded, even a file stored before the limit.
  const open = (bytes: Uint8Array) => sharp(bytes, { failOn: "error", limitInputPixels: MAX_IMAGE_PIXELS });
  return {
    decode: (bytes, maxSide) => bounded(() => decodeImage(bytes, { maxSide })),
    clean: (bytes, maxSide) =>
      bounded(async () => {
        let p = open(bytes).rotate();
        if (maxSide) p = p.resize({ width: maxSide, height: maxSide, fit: "inside", withoutEnlargement: true });
        return bytesOf(await p.jpeg({ quality: 88, mozjpeg: false }).toBuffer());
      }),
    thumbnail: (bytes, side) => bounded(async () => bytesOf(await open(bytes).rotate().resize({ width: side, height: side, fit: "cover" }).jpeg({ quality: 80 }).toBuffer())),
  };
};

/** Null when ffmpeg runs; otherwise a sentence for the log at start and for the report. */
export const ffmpegUnavailable = (command = process.env.CROWN_FFMPEG ?? "ffmpeg"): string | null => {
  const probe = spawnSync(command, ["-hide_banner", "-version"], { stdio: "ignore", timeout: 10_000 });
  if (probe.error || probe.status !== 0) return new FfmpegMissing(command).message;
  return null;
};

/**
 * Frames of a stored video: the stream is written to a temporary file (MP4 and MOV keep their
 * index at the end, so ffmpeg cannot read them from a pipe), sampled with ffmpeg, and each frame
 * encoded as a JPEG to be kept beside the video.
 */
export const makeFrameExtractor = (options: { ffmpeg?: string; maxSide?: number } = {}): FrameExtractorPort => {
  let cached: string | null | undefined;
  const unavailable = () => (cached === undefined ? (cached = ffmpegUnavailable(options.ffmpeg)) : cached);
  return {
    unavailable: () => Effect.sync(unavailable),
    extract: (video, extension, fps, max) =>
      Effect.promise(async () => {
        const why = unavailable();
        if (why !== null) return { error: why };
        const dir = await fs.mkdtemp(path.join(tmpdir(), "crown-video-"));
        const file = path.join(dir, `video.${extension.replace(/[^a-z0-9]/gi, "")}`);
        try {
          await pipeline(Readable.fromWeb(video as import("node:stream/web").ReadableStream<Uint8Array>), createWriteStream(file));
          const frames = await extractFrames(file, { fps, maxFrames: max, maxSide: options.maxSide ?? 1024, ...(options.ffmpeg ? { ffmpeg: options.ffmpeg } : {}) });
          const out = [];
          for (const [i, frame] of frames.entries()) {
            const jpeg = await sharp(Buffer.from(frame.data.buffer, frame.data.byteOffset, frame.data.byteLength), {
              raw: { width: frame.width, height: frame.height, channels: frame.channels },
            })
              .jpeg({ quality: 90 })
              .toBuffer();
            out.push({ time: i / fps, jpeg: bytesOf(jpeg) });
          }
          return { frames: out };
        } catch (error) {
          return { error: error instanceof Error ? error.message : String(error) };
        } finally {
          await fs.rm(dir, { recursive: true, force: true });
        }
      }),
  };
};

export const reportMediaLayer = (options: { ffmpeg?: string } = {}) =>
  Layer.mergeAll(Layer.succeed(Images, makeImages()), Layer.succeed(FrameExtractor, makeFrameExtractor(options)));
