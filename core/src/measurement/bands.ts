// Severity bands shown in reports: a screening aid, not a diagnosis. Data, cited in the report footer.

export interface SeverityBand {
  /** Inclusive lower bound; null for no bound. */
  readonly from: number | null;
  /** Exclusive upper bound; null for no bound. A value on a boundary belongs to the higher band. */
  readonly to: number | null;
  readonly label: string;
}

export interface CvaiBand extends SeverityBand {
  readonly level: 1 | 2 | 3 | 4 | 5;
}

/** Children's Healthcare of Atlanta (CHOA) plagiocephaly severity scale, by CVAI. */
export const CVAI_BANDS: readonly CvaiBand[] = [
  { level: 1, from: null, to: 3.5, label: "Level 1 (within normal limits)" },
  { level: 2, from: 3.5, to: 6.25, label: "Level 2 (mild)" },
  { level: 3, from: 6.25, to: 8.75, label: "Level 3 (moderate)" },
  { level: 4, from: 8.75, to: 11, label: "Level 4 (severe)" },
  { level: 5, from: 11, to: null, label: "Level 5 (very severe)" },
];

export type CiBandName = "long head" | "typical" | "mild brachycephaly" | "moderate brachycephaly" | "severe brachycephaly";

export interface CiBand extends SeverityBand {
  readonly name: CiBandName;
}

export const CI_BANDS: readonly CiBand[] = [
  { name: "long head", from: null, to: 76, label: "Long head (dolichocephaly side)" },
  { name: "typical", from: 76, to: 90, label: "Typical" },
  { name: "mild brachycephaly", from: 90, to: 93, label: "Mild brachycephaly" },
  { name: "moderate brachycephaly", from: 93, to: 97, label: "Moderate brachycephaly" },
  { name: "severe brachycephaly", from: 97, to: null, label: "Severe brachycephaly" },
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
