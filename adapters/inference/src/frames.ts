// Frames of a short video, via ffmpeg: the server's way of choosing the best frames of a capture.
import { spawn } from "node:child_process";
import type { RgbImage } from "@crown/core/measurement/index";

/** ffmpeg is not installed (or not where CROWN_FFMPEG points). */
export class FfmpegMissing extends Error {
  readonly _tag = "FfmpegMissing";
  constructor(readonly command: string) {
    super(`ffmpeg is needed to read videos but "${command}" was not found; install ffmpeg (apt-get install ffmpeg) or set CROWN_FFMPEG`);
    this.name = "FfmpegMissing";
  }
}

/** ffmpeg ran but could not read the video. */
export class VideoUnreadable extends Error {
  readonly _tag = "VideoUnreadable";
  constructor(readonly detail: string) {
    super(`The video could not be read: ${detail}`);
    this.name = "VideoUnreadable";
  }
}

export interface FrameOptions {
  /** Frames per second to sample. */
  readonly fps?: number;
  /** Longest side of the returned frames; smaller videos are not enlarged. */
  readonly maxSide?: number;
  /** Stop after this many frames. */
  readonly maxFrames?: number;
  readonly ffmpeg?: string;
}

/**
 * Decode frames from a video file at `fps`, upright (ffmpeg applies the phone's rotation), as RGB.
 * ffmpeg writes a stream of binary PPM images, whose headers carry each frame's size.
 */
export const extractFrames = (path: string, options: FrameOptions = {}): Promise<RgbImage[]> => {
  const command = options.ffmpeg ?? process.env.CROWN_FFMPEG ?? "ffmpeg";
  const fps = options.fps ?? 5;
  const side = options.maxSide ?? 960;
  const maxFrames = options.maxFrames ?? 300;
  const filter = `fps=${fps},scale='min(${side},iw)':'min(${side},ih)':force_original_aspect_ratio=decrease`;
  const args = ["-hide_banner", "-loglevel", "error", "-nostdin", "-i", path, "-vf", filter, "-frames:v", String(maxFrames), "-f", "image2pipe", "-vcodec", "ppm", "pipe:1"];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let errors = "";
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.on("error", (error: NodeJS.ErrnoException) => reject(error.code === "ENOENT" ? new FfmpegMissing(command) : error));
    child.on("close", (code) => {
      if (code !== 0) return reject(new VideoUnreadable(errors.trim().split("\n").slice(-2).join(" ") || `ffmpeg exited with ${code}`));
      try {
        const frames = parsePpmStream(Buffer.concat(chunks));
        if (frames.length === 0) return reject(new VideoUnreadable("it has no frames"));
        resolve(frames);
      } catch (error) {
        reject(error);
      }
    });
  });
};

/** Split concatenated binary PPM (P6, maxval 255) images. */
export const parsePpmStream = (bytes: Uint8Array): RgbImage[] => {
  const frames: RgbImage[] = [];
  let at = 0;
  const token = (): string => {
    // Skip whitespace and comments, then read up to the next whitespace.
    for (;;) {
      while (at < bytes.length && isSpace(bytes[at]!)) at++;
      if (bytes[at] !== 0x23) break;
      while (at < bytes.length && bytes[at] !== 0x0a) at++;
    }
    const start = at;
    while (at < bytes.length && !isSpace(bytes[at]!)) at++;
    return String.fromCharCode(...bytes.subarray(start, at));
  };
  while (at < bytes.length) {
    while (at < bytes.length && isSpace(bytes[at]!)) at++;
    if (at >= bytes.length) break;
    if (token() !== "P6") throw new VideoUnreadable("ffmpeg wrote something other than PPM frames");
    const width = Number(token());
    const height = Number(token());
    const maxval = Number(token());
    at++; // the single whitespace before the pixels
    const length = width * height * 3;
    if (!(width > 0 && height > 0) || maxval !== 255 || at + length > bytes.length) throw new VideoUnreadable("a frame was cut short");
    frames.push({ width, height, data: bytes.slice(at, at + length), channels: 3 });
    at += length;
  }
  return frames;
};

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
