// A report's figures: the median of each index over its accepted photos, with the spread beside it.

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly count: number;
}

export const medianWithSpread = (values: readonly number[]): Spread | null => {
  // + 0 turns -0 into 0, so the order of equal values cannot show in the result.
  const finite = values.filter(Number.isFinite).map((v) => v + 0).sort((a, b) => a - b);
  const n = finite.length;
  if (n === 0) return null;
  const middle = n >> 1;
  const median = n % 2 === 1 ? finite[middle]! : (finite[middle - 1]! + finite[middle]!) / 2;
  return { median, min: finite[0]!, max: finite[n - 1]!, count: n };
};

export interface MeasuredPhoto {
  readonly accepted: boolean;
  readonly ci: number | null;
  readonly cvai: number | null;
  readonly cva_mm: number | null;
}

export interface AggregatedIndices {
  /** How many photos were accepted and counted. */
  readonly accepted: number;
  readonly ci: Spread | null;
  readonly cvai: Spread | null;
  /** Only over photos with a sticker; null when none had one. */
  readonly cva_mm: Spread | null;
}

/** Rejected photos never count, whatever they measured. */
export const aggregateAccepted = (photos: readonly MeasuredPhoto[]): AggregatedIndices => {
  const accepted = photos.filter((p) => p.accepted);
  const values = (pick: (p: MeasuredPhoto) => number | null): number[] =>
    accepted.map(pick).filter((v): v is number => v !== null);
  return {
    accepted: accepted.length,
    ci: medianWithSpread(values((p) => p.ci)),
    cvai: medianWithSpread(values((p) => p.cvai)),
    cva_mm: medianWithSpread(values((p) => p.cva_mm)),
  };
};

export interface RankedPhoto extends MeasuredPhoto {
  /** Largest probability-to-threshold ratio of the quality reasons; lower is better (see qualityMargin). */
  readonly qualityMargin: number;
}

/**
 * The best accepted photos or frames, fewest doubts of the quality model first, at most `limit`:
 * how the server picks a video's frames for a report (auto-capture keeps the first good ones instead).
 */
export const bestAccepted = <P extends RankedPhoto>(photos: readonly P[], limit = 10): P[] =>
  photos
    .filter((p) => p.accepted)
    .map((p, order) => ({ p, order }))
    .sort((a, b) => a.p.qualityMargin - b.p.qualityMargin || a.order - b.order)
    .slice(0, limit)
    .map(({ p }) => p);
