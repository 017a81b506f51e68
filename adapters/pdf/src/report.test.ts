import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
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
