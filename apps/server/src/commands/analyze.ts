// `crown analyze <image or video>... [--json]`: measure photos and videos as the server would.
import { readFile, stat } from "node:fs/promises";
import { DEFAULT_MODEL_PATH } from "../paths.ts";
import { parseArgs } from "node:util";
import {
  aggregateAccepted,
  analyzePhoto,
  bestAccepted,
  ciBand,
  cvaiBand,
  QUALITY_REASONS,
  type PhotoAnalysis,
  type QualityReason,
  type Spread,
  type VerdictOutcome,
} from "@crown/core/measurement/index";
import {
  analyzeOptionsFrom,
  decodeImage,
  extractFrames,
  loadHeadContourModel,
  sniffMedia,
  type LoadedHeadContourModel,
} from "@crown/inference";

/**
 * Photos are shrunk to this side on decoding (libvips shrinks JPEGs while decoding, fast): the
 * model sees 160 px either way, and the indices and the sticker scale do not depend on pixel size.
 */
const DECODE_MAX_SIDE = 1600;
/** A report uses at most this many photos; so does a video's measurement. */
const BEST_FRAMES = 10;

const usage = `Usage: pnpm crown analyze <image or video>... [--json] [--model path/to/head-contour.onnx] [--threads N]

Measures each photo (JPEG, PNG, WebP, ...) or short video (MP4, MOV; needs ffmpeg) and prints
whether it is accepted, the reasons if not, the Cranial Index (CI), the Cranial Vault Asymmetry
Index (CVAI) and the CVA in millimetres when a sticker gives the scale. A video is measured on its
best accepted frames (up to ${BEST_FRAMES}) by the median, with the spread.
`;

/** One line of the result; the JSON output is an array of exactly these fields (plus `error`). */
export interface AnalyzedFile {
  readonly file: string;
  readonly accepted: boolean;
  /** accept, retake (see reasons) or refer to a reviewer (the model is unsure); null when unreadable. */
  readonly verdict: VerdictOutcome | null;
  readonly reasons: QualityReason[];
  readonly ci: number | null;
  readonly cvai: number | null;
  readonly cva_mm: number | null;
  /** Only when the file could not be read. */
  readonly error?: string;
}

interface FileResult extends AnalyzedFile {
  /** For videos: frames read, frames accepted and used, and the spread of each index. */
  readonly video?: { frames: number; accepted: number; used: number; ci: Spread | null; cvai: Spread | null; cva_mm: Spread | null };
}

export async function analyzeCommand(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { json: { type: "boolean" }, model: { type: "string" }, threads: { type: "string" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}`);
    return 1;
  }
  const { values, positionals: files } = parsed;
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  if (files.length === 0) {
    process.stderr.write(usage);
    return 1;
  }
  const threads = values.threads === undefined ? 1 : Number(values.threads);
  if (!Number.isInteger(threads) || threads < 1) {
    process.stderr.write(`--threads must be a whole number of at least 1, not "${values.threads}"\n`);
    return 1;
  }
  const modelPath = values.model ?? process.env.CROWN_MODEL ?? DEFAULT_MODEL_PATH;
  let model: LoadedHeadContourModel;
  try {
    await stat(modelPath);
    model = await loadHeadContourModel(modelPath, { threads });
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    process.stderr.write(
      missing
        ? `The head-contour model is not at ${modelPath}. Build it with \`pnpm model:build\`, or point --model (or CROWN_MODEL) at one.\n`
        : `The head-contour model at ${modelPath} could not be loaded: ${(error as Error).message}\n`,
    );
    return 1;
  }

  const results: FileResult[] = [];
  try {
    for (const file of files) {
      const result = await analyzeFile(file, model);
      if (result.error) process.stderr.write(`${file}: ${result.error}\n`);
      results.push(result);
    }
  } finally {
    await model.close();
  }

  if (values.json) {
    const lines: AnalyzedFile[] = results.map(({ file, accepted, verdict, reasons, ci, cvai, cva_mm, error }) => ({
      file,
      accepted,
      verdict,
      reasons,
      ci: round(ci),
      cvai: round(cvai),
      cva_mm: round(cva_mm),
      ...(error ? { error } : {}),
    }));
    process.stdout.write(`${JSON.stringify(lines, null, 2)}\n`);
  } else {
    process.stdout.write(formatTable(results));
  }
  return results.some((r) => r.error) ? 1 : 0;
}

const unreadable = (file: string, error: string): FileResult => ({ file, accepted: false, verdict: null, reasons: [], ci: null, cvai: null, cva_mm: null, error });

export const analyzeFile = async (file: string, model: LoadedHeadContourModel): Promise<FileResult> => {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return unreadable(file, code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory, not a file" : (error as Error).message);
  }
  const options = analyzeOptionsFrom(model.card);
  const media = await sniffMedia(bytes);
  if (media.kind === "image") {
    let image;
    try {
      image = await decodeImage(bytes, { maxSide: DECODE_MAX_SIDE });
    } catch (error) {
      return unreadable(file, `the ${media.mime} image could not be decoded (${(error as Error).message})`);
    }
    const analysis = await analyzePhoto(image, model, options);
    return { file, accepted: analysis.accepted, verdict: analysis.verdict, reasons: analysis.reasons, ci: analysis.ci, cvai: analysis.cvai, cva_mm: analysis.cva_mm };
  }
  if (media.kind === "video") {
    let frames;
    try {
      frames = await extractFrames(file);
    } catch (error) {
      return unreadable(file, (error as Error).message);
    }
    const analyses: PhotoAnalysis[] = [];
    for (const frame of frames) analyses.push(await analyzePhoto(frame, model, options));
    return summarizeVideo(file, analyses);
  }
  return unreadable(file, media.mime ? `a ${media.mime} file is neither a photo nor a video Crown can measure` : "not a photo or a video Crown can read");
};

/**
 * A video's measurement: its best accepted frames (fewest doubts of the quality model first), by
 * the median. Without an accepted frame, the reasons that rejected most frames.
 */
export const summarizeVideo = (file: string, analyses: readonly PhotoAnalysis[]): FileResult => {
  const accepted = analyses.filter((a) => a.accepted);
  const best = bestAccepted(analyses, BEST_FRAMES);
  const figures = aggregateAccepted(best);
  const video = { frames: analyses.length, accepted: accepted.length, used: best.length, ci: figures.ci, cvai: figures.cvai, cva_mm: figures.cva_mm };
  if (best.length > 0) {
    return { file, accepted: true, verdict: "accept", reasons: [], ci: figures.ci?.median ?? null, cvai: figures.cvai?.median ?? null, cva_mm: figures.cva_mm?.median ?? null, video };
  }
  const counts = new Map<QualityReason, number>();
  for (const a of analyses) for (const r of a.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const most = Math.max(0, ...counts.values());
  // Every reason that rejected at least half as many frames as the commonest one, in the quiz's order.
  const reasons = QUALITY_REASONS.filter((r) => (counts.get(r) ?? 0) > 0 && (counts.get(r) ?? 0) * 2 >= most);
  // Referred when some frame was unsure and none was accepted: a person should look at the clip.
  const verdict = analyses.some((a) => a.verdict === "refer") ? "refer" : "retake";
  return { file, accepted: false, verdict, reasons, ci: null, cvai: null, cva_mm: null, video };
};

const round = (v: number | null): number | null => (v === null ? null : Math.round(v * 100) / 100);
const fixed = (v: number | null): string => (v === null ? "-" : v.toFixed(1));
const withSpread = (v: number | null, s: Spread | null | undefined): string =>
  v === null ? "-" : s && s.count > 1 ? `${v.toFixed(1)} (${s.min.toFixed(1)}-${s.max.toFixed(1)})` : v.toFixed(1);

export const formatTable = (results: readonly FileResult[]): string => {
  const header = ["File", "Accepted", "CI", "CVAI", "CVA mm", "Notes"];
  const rows = results.map((r) => {
    const notes: string[] = [];
    if (r.error) notes.push(`unreadable: ${r.error}`);
    if (r.video) notes.push(`${r.video.used} of ${r.video.frames} frames used (${r.video.accepted} accepted)`);
    if (r.ci !== null) notes.push(ciBand(r.ci).label);
    if (r.cvai !== null) notes.push(`CVAI ${cvaiBand(r.cvai).label}`);
    if (r.reasons.length > 0) notes.push(`${r.accepted ? "" : "rejected: "}${r.reasons.join("; ")}`);
    if (r.ci !== null && !r.accepted && !r.video) notes.push("measured anyway, not for a report");
    return [
      r.file,
      r.error ? "unreadable" : r.accepted ? "yes" : r.verdict === "refer" ? "referred" : "no",
      withSpread(r.ci, r.video?.ci),
      withSpread(r.cvai, r.video?.cvai),
      r.video ? withSpread(r.cva_mm, r.video.cva_mm) : fixed(r.cva_mm),
      notes.join(". "),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n") + "\n";
};
