// Severity bands shown in reports: a screening aid, not a diagnosis. Data, cited in the report footer.

/**
 * The bands' names in words, keyed (core's catalogue group `bands`: Spanish beside the other messages,
 * read by the PDF and the portal). The tables below take their labels from here.
 */
export const BAND_LABELS = {
  cvai1: "Level 1 (within normal limits)",
  cvai2: "Level 2 (mild)",
  cvai3: "Level 3 (moderate)",
  cvai4: "Level 4 (severe)",
  cvai5: "Level 5 (very severe)",
  ciLongHead: "Long head (dolichocephaly side)",
  ciTypical: "Typical",
  ciMild: "Mild brachycephaly",
  ciModerate: "Moderate brachycephaly",
  ciSevere: "Severe brachycephaly",
} as const;
export type BandKey = keyof typeof BAND_LABELS;

export interface SeverityBand {
  /** Inclusive lower bound; null for no bound. */
  readonly from: number | null;
  /** Exclusive upper bound; null for no bound. A value on a boundary belongs to the higher band. */
  readonly to: number | null;
  readonly label: string;
  /** The label's key in core's catalogues (`bands.<key>`). */
  readonly key: BandKey;
}

export interface CvaiBand extends SeverityBand {
  readonly level: 1 | 2 | 3 | 4 | 5;
}

/** Children's Healthcare of Atlanta (CHOA) plagiocephaly severity scale, by CVAI. */
export const CVAI_BANDS: readonly CvaiBand[] = [
  { level: 1, from: null, to: 3.5, key: "cvai1", label: BAND_LABELS.cvai1 },
  { level: 2, from: 3.5, to: 6.25, key: "cvai2", label: BAND_LABELS.cvai2 },
  { level: 3, from: 6.25, to: 8.75, key: "cvai3", label: BAND_LABELS.cvai3 },
  { level: 4, from: 8.75, to: 11, key: "cvai4", label: BAND_LABELS.cvai4 },
  { level: 5, from: 11, to: null, key: "cvai5", label: BAND_LABELS.cvai5 },
];

export type CiBandName = "long head" | "typical" | "mild brachycephaly" | "moderate brachycephaly" | "severe brachycephaly";

export interface CiBand extends SeverityBand {
  readonly name: CiBandName;
}

export const CI_BANDS: readonly CiBand[] = [
  { name: "long head", from: null, to: 76, key: "ciLongHead", label: BAND_LABELS.ciLongHead },
  { name: "typical", from: 76, to: 90, key: "ciTypical", label: BAND_LABELS.ciTypical },
  { name: "mild brachycephaly", from: 90, to: 93, key: "ciMild", label: BAND_LABELS.ciMild },
  { name: "moderate brachycephaly", from: 93, to: 97, key: "ciModerate", label: BAND_LABELS.ciModerate },
  { name: "severe brachycephaly", from: 97, to: null, key: "ciSevere", label: BAND_LABELS.ciSevere },
];

/** The band a value falls in; throws if the table has a gap there (a broken table, not bad input). */
export const bandOf = <B extends SeverityBand>(value: number, bands: readonly B[]): B => {
  if (!Number.isFinite(value)) throw new RangeError(`Not a measurement: ${value}`);
  const band = bands.find((b) => (b.from === null || value >= b.from) && (b.to === null || value < b.to));
  if (!band) throw new RangeError(`No band covers ${value}`);
  return band;
};

export const cvaiBand = (cvai: number): CvaiBand => bandOf(cvai, CVAI_BANDS);
export const ciBand = (ci: number): CiBand => bandOf(ci, CI_BANDS);

/** A band's range in words, from the table: "below 76", "76-90", "97 and above" (a boundary belongs to the higher band). */
export const bandRange = (band: SeverityBand): string =>
  band.from === null ? `below ${band.to}` : band.to === null ? `${band.from} and above` : `${band.from}-${band.to}`;

/** The values where one band ends and the next begins, lowest first (the lines of a chart). */
export const bandLimits = (bands: readonly SeverityBand[]): number[] => bands.flatMap((b) => (b.from === null ? [] : [b.from]));

/** For the report footer; the CI ranges are written from CI_BANDS so the two never disagree. */
export const SEVERITY_CITATION =
  "CVAI levels: Children's Healthcare of Atlanta plagiocephaly severity scale (Holowka MA et al., " +
  "Plagiocephaly Severity Scale to Aid in Clinical Treatment Recommendations, Plast Reconstr Surg Glob Open 2017;5(3):e1262). " +
  `CI ranges: ${CI_BANDS.map((b) => `${bandRange(b)} ${b.name}`).join(", ")}. ` +
  "Screening aid from photos, not a diagnosis.";
