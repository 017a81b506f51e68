import type { Language } from "../shared/i18n.ts";

/**
 * The marks drawn over a measured photo and the one colour each has wherever it is drawn: the review
 * console and the report's PDF both draw and explain them from here (issue 46: the console drew the
 * length orange while the PDF's legend called blue the length).
 */
export const OVERLAY_MARKS = ["outline", "length", "width", "diagonalA", "diagonalB", "noseTip", "centre", "sticker"] as const;
export type OverlayMark = (typeof OVERLAY_MARKS)[number];

export interface OverlayStyle {
  /** A CSS and PDF colour, #rrggbb. */
  readonly colour: string;
  /** Drawn dashed (the diagonals, the sticker's circle). */
  readonly dashed: boolean;
}

export const OVERLAY_STYLES: Readonly<Record<OverlayMark, OverlayStyle>> = {
  outline: { colour: "#22c55e", dashed: false },
  length: { colour: "#2563eb", dashed: false },
  width: { colour: "#f59e0b", dashed: false },
  diagonalA: { colour: "#e11d48", dashed: true },
  diagonalB: { colour: "#a855f7", dashed: true },
  noseTip: { colour: "#facc15", dashed: false },
  centre: { colour: "#111827", dashed: false },
  sticker: { colour: "#06b6d4", dashed: true },
};

const WORDS: Readonly<Record<Language, Readonly<Record<OverlayMark, string>>>> = {
  en: {
    outline: "head outline",
    length: "length along the nose axis",
    width: "width",
    diagonalA: "diagonal A (+30°)",
    diagonalB: "diagonal B (−30°)",
    noseTip: "nose tip",
    centre: "centre",
    sticker: "sticker",
  },
  es: {
    outline: "contorno de la cabeza",
    length: "largo a lo largo del eje de la nariz",
    width: "ancho",
    diagonalA: "diagonal A (+30°)",
    diagonalB: "diagonal B (−30°)",
    noseTip: "punta de la nariz",
    centre: "centro",
    sticker: "pegatina",
  },
};

export interface LegendEntry extends OverlayStyle {
  readonly mark: OverlayMark;
  readonly label: string;
}

/** The legend of the marks a view draws (all of them unless told), in a language, in one order everywhere. */
export const overlayLegend = (language: Language, marks: ReadonlyArray<OverlayMark> = OVERLAY_MARKS): ReadonlyArray<LegendEntry> =>
  OVERLAY_MARKS.filter((mark) => marks.includes(mark)).map((mark) => ({ mark, label: WORDS[language][mark], ...OVERLAY_STYLES[mark] }));
