import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { OVERLAY_STYLES } from "@crown/core/measurement/index";
import type { ReportDocument } from "@crown/core/report/index";
import { describe, expect, it } from "vitest";
import { renderReportPdf } from "./report.tsx";

/** Issue 46, walk item 1: the report's PDF never has a page with nothing on it but the footer. */

const photo = new Uint8Array(readFileSync(path.resolve(import.meta.dirname, "../../../models/head-contour/samples/good-1-typical.jpg")));
const DISCLAIMER = "This report is a screening aid computed from photos. It is not a diagnosis and not a substitute for an examination by a doctor.";

/** An ellipse head on the 640 × 480 sample, with its length (vertical) and width (horizontal) drawn through the centre. */
const geometry = {
  imageWidth: 640,
  imageHeight: 480,
  outline: Array.from({ length: 120 }, (_, i) => ({ x: 320 + 150 * Math.cos((i / 120) * 2 * Math.PI), y: 240 + 190 * Math.sin((i / 120) * 2 * Math.PI) })),
  noseTip: { x: 320, y: 52 },
  centre: { x: 320, y: 240 },
  apAxis: { x: 0, y: -1 },
  length: 380,
  width: 300,
  lengthEnds: [{ x: 320, y: 430 }, { x: 320, y: 50 }] as const,
  widthEnds: [{ x: 170, y: 240 }, { x: 470, y: 240 }] as const,
  diagonals: { a: 350, b: 348, endpoints: { a: [{ x: 220, y: 400 }, { x: 420, y: 80 }] as const, b: [{ x: 420, y: 400 }, { x: 220, y: 80 }] as const } },
  sticker: null,
};

export const sampleDocument = (photos: number, noteWords: number): ReportDocument => ({
  title: "Head shape screening report",
  kind: "published",
  baby: { name: "Mia Rivera", dateOfBirth: "2026-07-15", ageAtCapture: "4 months 7 days", gender: "female" },
  capturedAt: new Date("2026-11-22T09:00:00Z"),
  publishedAt: new Date("2026-11-22T11:00:00Z"),
  version: 1,
  provider: "Dr. Grace Hopper",
  reviewer: "Rita Levi",
  note: noteWords === 0 ? null : Array.from({ length: noteWords }, () => "word").join(" "),
  summary: { accepted: photos, measured: photos, ci: { median: 81, min: 80.2, max: 82.3, count: 6 }, cvai: { median: 2.1, min: 1.2, max: 3.3, count: 6 }, cva_mm: null, problems: [] } as unknown as ReportDocument["summary"],
  bands: { ci: "Typical", cvai: "Level 1 (within normal limits)" },
  photos: Array.from({ length: photos }, (_, i) => ({ label: `photo-${i + 1}.jpg`, jpeg: photo, geometry, ci: 81, cvai: 2.1 })),
  history: [
    { date: new Date("2026-09-20T10:00:00Z"), ci: 84, cvai: 4.2 },
    { date: new Date("2026-11-22T09:00:00Z"), ci: 81, cvai: 2.1 },
  ],
  disclaimer: DISCLAIMER,
  citation: "CVAI levels: CHOA plagiocephaly severity scale.",
});

/** Each page's words (pdftotext separates pages with a form feed), the footer's disclaimer taken out. */
const pagesOf = (pdf: Uint8Array): string[] => {
  const text = execFileSync("pdftotext", ["-", "-"], { input: pdf }).toString();
  return text
    .split("\f")
    .slice(0, -1)
    .map((page) => page.replace(/\s+/g, " ").replace(DISCLAIMER, "").trim());
};

describe("the report's pages (issue 46)", () => {
  it("leaves no page blank but for the footer, however far the first page's content reaches", async () => {
    // The first page fills up as the reviewer's note grows: here a note of about 48 to 56 words left page 2 empty.
    const blank: string[] = [];
    for (const photos of [0, 6]) {
      for (let words = 0; words <= 96; words += photos === 0 ? 48 : 8) {
        const pages = pagesOf(await renderReportPdf(sampleDocument(photos, words)));
        pages.forEach((page, i) => {
          if (page === "") blank.push(`${photos} photos, a note of ${words} words: page ${i + 1} of ${pages.length}`);
        });
        expect(pages.join(" ")).toContain(photos > 0 ? "photo-6.jpg" : "Accepted photos");
      }
    }
    expect(blank).toEqual([]);
  }, 300_000);
});

/** A page rasterised by pdftoppm (PPM: a header, then RGB bytes), `dpi` dots an inch. */
const rasterOf = (pdf: Uint8Array, page: number, dpi: number) => {
  const dir = mkdtempSync(path.join(tmpdir(), "crown-pdf-raster-"));
  try {
    writeFileSync(path.join(dir, "r.pdf"), pdf);
    execFileSync("pdftoppm", ["-r", String(dpi), "-f", String(page), "-l", String(page), "-singlefile", path.join(dir, "r.pdf"), path.join(dir, "page")]);
    const bytes = readFileSync(path.join(dir, "page.ppm"));
    const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(bytes.subarray(0, 32).toString("latin1"))!;
    return { width: Number(header[1]), height: Number(header[2]), rgb: bytes.subarray(header[0].length) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** The longest run of a colour's pixels in one column (a vertical line) and in one row (a horizontal line). */
const longestLines = (raster: ReturnType<typeof rasterOf>, hex: string) => {
  const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const near = (x: number, y: number) => {
    const o = (y * raster.width + x) * 3;
    return Math.abs(raster.rgb[o]! - want[0]!) + Math.abs(raster.rgb[o + 1]! - want[1]!) + Math.abs(raster.rgb[o + 2]! - want[2]!) < 30;
  };
  let vertical = 0;
  let horizontal = 0;
  for (let x = 0; x < raster.width; x++) {
    let count = 0;
    for (let y = 0; y < raster.height; y++) count += near(x, y) ? 1 : 0;
    vertical = Math.max(vertical, count);
  }
  for (let y = 0; y < raster.height; y++) {
    let count = 0;
    for (let x = 0; x < raster.width; x++) count += near(x, y) ? 1 : 0;
    horizontal = Math.max(horizontal, count);
  }
  return { vertical, horizontal };
};

describe("the PDF's overlay colours (issue 46, walk item 2)", () => {
  it("draws the length and the width in core's legend colours, the ones the review console draws them in", async () => {
    // The sample's length runs down the photo and its width across it: about 200 and 160 pixels at 150 dpi.
    const raster = rasterOf(await renderReportPdf(sampleDocument(1, 0)), 2, 150);
    const length = longestLines(raster, OVERLAY_STYLES.length.colour);
    const width = longestLines(raster, OVERLAY_STYLES.width.colour);
    expect(length.vertical, "a vertical line in the length's colour").toBeGreaterThan(150);
    expect(length.horizontal, "no horizontal line in the length's colour").toBeLessThan(80);
    expect(width.horizontal, "a horizontal line in the width's colour").toBeGreaterThan(120);
    expect(width.vertical, "no vertical line in the width's colour").toBeLessThan(80);
  }, 120_000);
});
